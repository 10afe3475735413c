import { useId } from 'react';
import { KeyRound, LogOut } from 'lucide-react';
import { toast } from 'react-hot-toast';
import { routes } from '../../../shared/contract/routes.ts';
import { OWN_PASSWORD_TEXTS } from '../../../shared/student-access.ts';
import { queryClient } from '../../lib/query-client.ts';
import { queryKeyOf } from '../../lib/query-keys.ts';
import { useLogout, useSession } from '../../lib/session.ts';
import { Brand } from '../../ui/brand.tsx';
import { Button } from '../../ui/button.tsx';
import { ChangePasswordForm, useChangeOwnPassword } from './change-password-form.tsx';

/**
 * What a student sees instead of their area while the school requires them to replace the password the staff gave
 * them (the server refuses the area's reads meanwhile): the change, or signing out. Loaded only then (route-guard.tsx):
 * its form's schema brings zod, which an area's home does without.
 */
export default function PasswordChangeScreen() {
  const { user } = useSession();
  const name = user?.role === 'student' ? user.student.name : '';
  const formId = useId();
  const change = useChangeOwnPassword();
  const logout = useLogout();
  return (
    <main className="flex min-h-dvh flex-col items-center justify-center bg-gradient-to-br from-indigo-50 via-white to-violet-50 px-4 py-8">
      <div className="w-full max-w-md">
        <div className="mb-6 flex justify-center">
          <Brand />
        </div>
        <section aria-labelledby={`${formId}-title`} className="rounded-3xl bg-white p-6 shadow-xl ring-1 ring-slate-200 sm:p-8">
          <span aria-hidden="true" className="mb-4 flex size-12 items-center justify-center rounded-2xl bg-indigo-100 text-indigo-700">
            <KeyRound className="size-6" />
          </span>
          <h1 id={`${formId}-title`} className="text-2xl font-bold text-slate-900">
            {OWN_PASSWORD_TEXTS.requiredTitle}
          </h1>
          <p className="mt-2 mb-6 text-sm text-slate-700">
            Olá, {name}! {OWN_PASSWORD_TEXTS.requiredIntro}
          </p>
          <ChangePasswordForm
            formId={formId}
            currentLabel={OWN_PASSWORD_TEXTS.requiredCurrent}
            change={change}
            onChanged={(message) => {
              toast.success(message);
              // The session, read again, no longer asks for the change: the area opens.
              void queryClient.refetchQueries({ queryKey: queryKeyOf(routes.auth.me), exact: true });
            }}
          />
          <div className="mt-6 flex flex-col-reverse gap-3 sm:flex-row sm:justify-between">
            <Button
              variant="secondary"
              onClick={() => logout.mutate()}
              loading={logout.isPending}
              icon={<LogOut aria-hidden="true" className="size-4" />}
            >
              Sair
            </Button>
            <Button type="submit" form={formId} loading={change.isPending}>
              {OWN_PASSWORD_TEXTS.submit}
            </Button>
          </div>
        </section>
      </div>
    </main>
  );
}
