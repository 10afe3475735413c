import { CORE_ERROR_MESSAGES } from '../../../shared/messages-core.ts';
import { auth } from '../../../shared/contract/auth.ts';
import { urlOf } from '../../../shared/contract/route.ts';
import { SIGN_IN_PROVIDER_NAMES, signInRefusalOf, type SignInProvider } from '../../../shared/school-accounts.ts';
import { cn } from '../../lib/cn.ts';
import { FormAlert } from '../../ui/form-alert.tsx';

/** Why the server sent someone back from a sign-in with a school account (the page's `?error=`); nothing for an unknown reason. */
function SchoolAccountRefusal({ search }: { search: string }) {
  const refusal = signInRefusalOf(search);
  if (!refusal) return null;
  return (
    <div className="mt-4">
      <FormAlert message={CORE_ERROR_MESSAGES[refusal]} />
    </div>
  );
}

/**
 * 'Entrar com Google' / 'Entrar com Microsoft', for students and staff alike, when the server is configured for them:
 * plain links, since the browser leaves for the provider (GET /api/auth/oidc/:provider/start).
 */
function SchoolAccountLinks({ providers }: { providers: readonly SignInProvider[] }) {
  return (
    <div className="mt-6">
      <p className="flex items-center gap-3 text-sm text-slate-500 before:h-px before:flex-1 before:bg-slate-200 after:h-px after:flex-1 after:bg-slate-200">
        ou use a conta da escola
      </p>
      <div className="mt-4 flex flex-col gap-3">
        {providers.map((provider) => (
          <a
            key={provider}
            href={urlOf(auth.oidcStart, { params: { provider } })}
            className={cn(
              'flex h-12 items-center justify-center rounded-xl border border-slate-300 bg-white px-5 text-base font-semibold',
              'text-slate-800 shadow-sm hover:bg-slate-50 active:bg-slate-100',
            )}
          >
            Entrar com {SIGN_IN_PROVIDER_NAMES[provider]}
          </a>
        ))}
      </div>
    </div>
  );
}

/** The login page's part of the sign-in with school accounts: the refusal named in the page's query, or the providers' links. */
export default function SchoolAccountSignIn(props: { refusal: string } | { providers: readonly SignInProvider[] }) {
  return 'refusal' in props ? <SchoolAccountRefusal search={props.refusal} /> : <SchoolAccountLinks providers={props.providers} />;
}
