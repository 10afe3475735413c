import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { ShieldAlert } from 'lucide-react';
import type { SessionUser } from '../../shared/auth.ts';
import { paths } from '../lib/paths.ts';
import { useSession } from '../lib/session.ts';
import { hasStaffPermission, isTeacherWithoutTurmas } from '../lib/staff.ts';
import { NoTurmasNotice } from '../ui/no-turmas-notice.tsx';
import { PageHeader } from '../ui/page-header.tsx';
import type { AppRoute } from './route-types.ts';

/** Whether the signed-in user may open a screen: it asks for no permission beyond its area's, or the member has it. */
export function mayOpen(user: SessionUser | null, route: Pick<AppRoute, 'permission'>): boolean {
  return route.permission === undefined || hasStaffPermission(user, route.permission);
}

/** Where a teacher lands on a screen of the coordination (typed, or from an old link): what it is, and the way back. */
function NoPermission() {
  return (
    <section
      aria-labelledby="sem-permissao"
      className="mx-auto mt-4 flex max-w-lg flex-col items-center gap-3 rounded-2xl border border-slate-200 bg-white px-6 py-10 text-center shadow-sm lg:mt-6"
    >
      <span aria-hidden="true" className="flex size-12 items-center justify-center rounded-full bg-amber-100 text-amber-800">
        <ShieldAlert className="size-6" />
      </span>
      <h1 id="sem-permissao" className="text-2xl font-bold tracking-tight text-slate-900">
        Sem permissão
      </h1>
      <p className="text-sm text-slate-600 sm:text-base">
        Esta página é da coordenação da escola. Se você precisa de algo dela, fale com a coordenação.
      </p>
      <Link
        to={paths.admin.home}
        className={
          'mt-2 inline-flex h-11 items-center justify-center rounded-xl bg-indigo-600 px-4 text-sm font-semibold ' +
          'text-white shadow-sm hover:bg-indigo-700'
        }
      >
        Voltar ao Dashboard
      </Link>
    </section>
  );
}

/**
 * A screen, or what stands in its place: 'Sem permissão' for a member without the screen's permission (the API answers
 * 403 to its calls anyway), the explanation for a teacher without turmas on a screen that lists students.
 */
export function ScreenAccess({ route, children }: { route: AppRoute; children: ReactNode }) {
  const { user } = useSession();
  if (!mayOpen(user, route)) return <NoPermission />;
  if (route.listsStudents && isTeacherWithoutTurmas(user)) {
    return (
      <div>
        <PageHeader title={route.nav?.label ?? route.title} />
        <NoTurmasNotice />
      </div>
    );
  }
  return children;
}
