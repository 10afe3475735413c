import { Suspense, useEffect, useLayoutEffect, useRef, useState, type ReactNode, type RefObject } from 'react';
import { NavLink, Outlet, useLocation } from 'react-router';
import { LogOut, Menu } from 'lucide-react';
import type { SelfAdmin, SessionUser } from '../../shared/auth.ts';
import { STAFF_ROLE_LABELS } from '../../shared/permissions.ts';
import { POLL_MS } from '../../shared/constants.ts';
import { formatMeritus } from '../../shared/format.ts';
import { cn } from '../lib/cn.ts';
import { useLiveStatus } from '../lib/live-events.ts';
import { Avatar } from '../ui/avatar.tsx';
import { Spinner } from '../ui/spinner.tsx';
import { useFocusTrap } from '../ui/use-focus-trap.ts';
import { SCREEN, useMediaQuery } from '../ui/use-media-query.ts';
import { BalanceCards } from './balance-cards.tsx';
import { Brand } from '../ui/brand.tsx';
import { CloseButton } from '../ui/close-button.tsx';
import { useSchoolSettings } from '../lib/school-settings.ts';
import type { SchoolRules } from '../../shared/settings.ts';
import { navOrder, paths, type Role } from '../lib/paths.ts';
import type { AppRoute, NavGroup } from './route-types.ts';
import { mayOpen } from './screen-access.tsx';
import { RouteErrorBoundary } from './route-error.tsx';
import { reloadIfOutdated } from '../lib/build-version.ts';
import { displayName } from '../lib/session-api.ts';
import { useLogout, useSession } from '../lib/session.ts';

type NavEntry = { path: string } & NonNullable<AppRoute['nav']>;

/** The registered screens that have a sidebar entry, in the order of navOrder. */
export function navEntries(role: Role, routes: readonly AppRoute[]): NavEntry[] {
  const order = navOrder[role];
  const rank = (path: string) => (order.includes(path) ? order.indexOf(path) : order.length);
  return routes
    .filter((route): route is AppRoute & { nav: NonNullable<AppRoute['nav']> } => route.nav !== undefined)
    .map((route) => ({ path: route.path, ...route.nav }))
    .sort((a, b) => rank(a.path) - rank(b.path));
}

/** A member of the staff's role, and a teacher's turmas (the students they see and award). */
function StaffFacts({ admin }: { admin: SelfAdmin }) {
  return (
    <>
      <p className="text-xs font-medium text-indigo-800" data-testid="staff-role">
        {STAFF_ROLE_LABELS[admin.role]}
      </p>
      {admin.role === 'teacher' && (
        <p className="text-xs leading-snug wrap-anywhere text-slate-600">
          {admin.turmas.length === 0 ? 'Sem turmas' : `Turmas: ${admin.turmas.map((turma) => turma.name).join(', ')}`}
        </p>
      )}
    </>
  );
}

const USER_CHIP = 'flex items-center gap-3 rounded-2xl p-2.5 ring-1';

/** Who is signed in; a member of the staff opens their own account (Meu perfil) from it, highlighted while it is open. */
function UserChip({ user }: { user: SessionUser }) {
  const name = displayName(user);
  const photo = user.role === 'student' ? user.student.photo : null;
  const content = (
    <>
      <Avatar name={name} src={photo} size="md" />
      <div className="min-w-0">
        <p className="text-sm leading-snug font-semibold wrap-anywhere text-slate-900" data-testid="user-name">
          {name}
        </p>
        {user.role === 'student' ? (
          <>
            <p className="truncate text-xs text-slate-600">Matrícula {user.student.studentId}</p>
            <p className="truncate text-xs text-slate-600">{user.student.grade}</p>
          </>
        ) : user.role === 'guardian' ? (
          <p className="text-xs wrap-anywhere text-slate-600">Responsável</p>
        ) : (
          <StaffFacts admin={user.admin} />
        )}
      </div>
    </>
  );
  if (user.role === 'student' || user.role === 'guardian')
    return <div className={cn(USER_CHIP, 'bg-slate-50 ring-slate-200')}>{content}</div>;
  return (
    <NavLink
      to={paths.admin.profile}
      className={({ isActive }) =>
        cn(
          USER_CHIP,
          'transition-colors',
          isActive ? 'bg-indigo-50 ring-2 ring-indigo-600' : 'bg-slate-50 ring-slate-200 hover:bg-indigo-50',
        )
      }
    >
      {content}
      {/* The name read out starts with what the chip shows (label-content-name-mismatch), then says where it leads. */}
      <span className="sr-only">: Meu perfil</span>
    </NavLink>
  );
}

/** The entries without a heading, then each heading's, in the order their first entry comes. */
function groupsOf(entries: NavEntry[]): { heading: NavGroup | undefined; entries: NavEntry[] }[] {
  const groups: { heading: NavGroup | undefined; entries: NavEntry[] }[] = [];
  for (const entry of [...entries.filter((entry) => !entry.group), ...entries.filter((entry) => entry.group)]) {
    const last = groups.at(-1);
    if (last && last.heading === entry.group) last.entries.push(entry);
    else groups.push({ heading: entry.group, entries: [entry] });
  }
  return groups;
}

function SidebarContent({
  user,
  role,
  entries,
  rules,
}: {
  user: SessionUser;
  role: Role;
  entries: NavEntry[];
  rules: SchoolRules | undefined;
}) {
  const logout = useLogout();
  const homeEntry = navOrder[role][0];
  return (
    <div className="flex h-full flex-col gap-4 overflow-y-auto p-4">
      <UserChip user={user} />
      {user.role === 'student' && rules && <BalanceCards student={user.student} rules={rules} />}
      <nav aria-label="Menu principal" className="flex flex-1 flex-col gap-4">
        {groupsOf(entries).map((group) => {
          const headingId = group.heading && `menu-${group.heading.toLowerCase()}`;
          return (
            <div key={group.heading ?? ''} className="flex flex-col gap-1">
              {group.heading && (
                <h2 id={headingId} className="px-3 text-xs font-semibold tracking-wide text-slate-500 uppercase">
                  {group.heading}
                </h2>
              )}
              <ul aria-labelledby={headingId} className="flex flex-col gap-1">
                {group.entries.map((entry) => (
                  <li key={entry.path}>
                    <NavLink
                      to={entry.path}
                      end={entry.path === homeEntry}
                      className={({ isActive }) =>
                        cn(
                          'flex min-h-11 items-center gap-3 rounded-xl px-3 text-sm font-semibold transition-colors',
                          isActive ? 'bg-indigo-600 text-white shadow-sm' : 'text-slate-700 hover:bg-indigo-50 hover:text-indigo-800',
                        )
                      }
                    >
                      <entry.icon aria-hidden="true" className="size-5 shrink-0" />
                      {entry.label}
                    </NavLink>
                  </li>
                ))}
              </ul>
            </div>
          );
        })}
      </nav>
      <button
        type="button"
        onClick={() => logout.mutate()}
        disabled={logout.isPending}
        className="flex min-h-11 items-center gap-3 rounded-xl px-3 text-sm font-semibold text-rose-700 transition-colors hover:bg-rose-50 disabled:opacity-60"
      >
        <LogOut aria-hidden="true" className="size-5" />
        Sair
      </button>
    </div>
  );
}

function MobileDrawer({ open, onClose, children }: { open: boolean; onClose: () => void; children: ReactNode }) {
  const panelRef = useRef<HTMLDivElement>(null);
  useFocusTrap(panelRef, open, onClose);
  if (!open) return null;
  return (
    <div className="fixed inset-0 z-40 lg:hidden">
      <div aria-hidden="true" data-testid="drawer-overlay" className="absolute inset-0 bg-slate-900/50" onClick={onClose} />
      <div
        ref={panelRef}
        role="dialog"
        aria-modal="true"
        aria-label="Menu de navegação"
        tabIndex={-1}
        className="absolute inset-y-0 left-0 flex w-[85%] max-w-80 flex-col bg-white shadow-2xl focus:outline-none"
      >
        <div className="flex h-16 items-center justify-between border-b border-slate-100 px-4">
          <Brand />
          <CloseButton
            label="Fechar menu"
            onClick={onClose}
            className="flex size-11 items-center justify-center rounded-xl text-slate-600 hover:bg-slate-100 hover:text-slate-900"
          />
        </div>
        <div className="min-h-0 flex-1">{children}</div>
      </div>
    </div>
  );
}

/**
 * A screen's name for a path: its sidebar label or title, or that of the longest route it lies under
 * (/admin/students/… is Gerenciar Alunos, not the Dashboard at /admin).
 */
export function screenLabel(routes: readonly Pick<AppRoute, 'path' | 'nav' | 'title'>[], pathname: string): string | undefined {
  const matches = routes.filter(
    (route) => (route.nav?.label ?? route.title) !== undefined && (pathname === route.path || pathname.startsWith(`${route.path}/`)),
  );
  const best = matches.sort((a, b) => b.path.length - a.path.length)[0];
  return best?.nav?.label ?? best?.title;
}

/** Whether the page has scrolled down from its top. */
function useScrolled(): boolean {
  const [scrolled, setScrolled] = useState(() => window.scrollY > 0);
  useEffect(() => {
    const update = () => setScrolled(window.scrollY > 0);
    window.addEventListener('scroll', update, { passive: true });
    return () => window.removeEventListener('scroll', update);
  }, []);
  return scrolled;
}

/**
 * On wide screens the toasts' band (styles.css) stays at the top as the page scrolls, so a
 * toast never lies over the page. Once the page scrolls under it, it names the screen with a
 * line below, so it reads as the page's header rather than an empty strip over the content.
 */
function ToastBand({ title }: { title: string | undefined }) {
  const scrolled = useScrolled();
  return (
    <div
      aria-hidden="true"
      className={cn(
        'sticky top-0 z-20 hidden h-(--toast-band) border-b bg-slate-50/95 backdrop-blur lg:block',
        scrolled ? 'border-slate-200' : 'border-transparent',
      )}
    >
      <p className={cn('mx-auto flex h-full max-w-7xl items-center px-8 text-base font-semibold text-slate-800', !scrolled && 'invisible')}>
        {title}
      </p>
    </div>
  );
}

/**
 * On the phone's app bar, toasts rest between the menu button and the balance (styles.css, --toast-right): this keeps
 * that edge at the left of the bar's right-hand group (the balance and the avatar), whose width follows the balance.
 */
function useToastsLeftOf(groupRef: RefObject<HTMLElement | null>): void {
  useLayoutEffect(() => {
    const group = groupRef.current;
    if (!group) return;
    const root = document.documentElement;
    const place = () =>
      root.style.setProperty('--toast-right', `${Math.ceil(root.clientWidth - group.getBoundingClientRect().left + 8)}px`);
    place();
    const observer = new ResizeObserver(place);
    observer.observe(group);
    window.addEventListener('resize', place);
    return () => {
      observer.disconnect();
      window.removeEventListener('resize', place);
      root.style.removeProperty('--toast-right');
    };
  }, [groupRef]);
}

function AppBarEnd({ user }: { user: SessionUser }) {
  const ref = useRef<HTMLDivElement>(null);
  useToastsLeftOf(ref);
  return (
    <div ref={ref} className="flex shrink-0 items-center gap-2" data-testid="app-bar-end">
      {user.role === 'student' && (
        <span
          className="rounded-full bg-amber-50 px-2.5 py-1 text-sm font-bold text-amber-900 ring-1 ring-amber-200"
          data-testid="app-bar-balance"
        >
          <span className="sr-only">Saldo: </span>
          {formatMeritus(user.student.meritus)}
        </span>
      )}
      <Avatar name={displayName(user)} src={user.role === 'student' ? user.student.photo : null} size="sm" className="mr-2" />
    </div>
  );
}

/** The signed-in frame: desktop sidebar, mobile top bar with a drawer, and the current screen. */
export function AppLayout({ role, routes }: { role: Role; routes: readonly AppRoute[] }) {
  const live = useLiveStatus();
  const { user } = useSession({ refetchInterval: live ? false : POLL_MS.sidebarEstelecas });
  const location = useLocation();
  // The drawer belongs to the page it was opened on, so any navigation closes it.
  const [drawerPath, setDrawerPath] = useState<string | null>(null);
  const drawerOpen = drawerPath === location.pathname;
  const settings = useSchoolSettings();
  // A phone gets the drawer only: the sidebar it never shows is not rendered.
  const wide = useMediaQuery(SCREEN.lg);
  // After a deploy, the next screen opened is the new build's (the old one's files are kept a while, not for ever).
  useEffect(reloadIfOutdated, [location.pathname]);

  if (!user) return null;
  const entries = navEntries(
    role,
    routes.filter((route) => mayOpen(user, route)),
  );
  const school = settings.data?.school;
  const sidebar = <SidebarContent user={user} role={role} entries={entries} rules={settings.data?.rules} />;

  return (
    <div className="min-h-dvh bg-slate-50">
      <a
        href="#conteudo"
        className="sr-only z-50 rounded-lg bg-white px-4 py-2 font-semibold text-indigo-700 shadow focus:not-sr-only focus:fixed focus:top-3 focus:left-3"
      >
        Pular para o conteúdo
      </a>
      {wide && (
        <aside className="fixed inset-y-0 left-0 z-30 flex w-72 flex-col border-r border-slate-200 bg-white">
          <div className="flex h-16 shrink-0 items-center border-b border-slate-100 px-5">
            <Brand className="min-w-0" school={school} />
          </div>
          <div className="min-h-0 flex-1">{sidebar}</div>
        </aside>
      )}
      {!wide && (
        <header className="sticky top-0 z-20 flex h-16 items-center gap-2 border-b border-slate-200 bg-white/95 px-2 backdrop-blur">
          <button
            type="button"
            onClick={() => setDrawerPath(location.pathname)}
            aria-label="Abrir menu"
            aria-expanded={drawerOpen}
            className="flex size-11 items-center justify-center rounded-xl text-slate-700 hover:bg-slate-100"
          >
            <Menu aria-hidden="true" className="size-6" />
          </button>
          <Brand className="min-w-0 flex-1" school={school} />
          <AppBarEnd user={user} />
        </header>
      )}
      <MobileDrawer open={drawerOpen} onClose={() => setDrawerPath(null)}>
        {sidebar}
      </MobileDrawer>

      <div className="lg:pl-72">
        <ToastBand title={screenLabel(routes, location.pathname)} />
        <main id="conteudo" tabIndex={-1} className="mx-auto w-full max-w-7xl px-4 py-6 focus:outline-none sm:px-6 lg:px-8 lg:pt-0 lg:pb-8">
          <RouteErrorBoundary resetKey={location.pathname}>
            <Suspense
              fallback={
                <div className="flex justify-center py-20">
                  <Spinner className="size-8" />
                </div>
              }
            >
              {/* Screens wait for the settings: their dates are written in the school's time zone (if the settings fail, in the default one). */}
              {settings.data || settings.isError ? (
                <Outlet />
              ) : (
                <div className="flex justify-center py-20">
                  <Spinner className="size-8" />
                </div>
              )}
            </Suspense>
          </RouteErrorBoundary>
        </main>
      </div>
    </div>
  );
}
