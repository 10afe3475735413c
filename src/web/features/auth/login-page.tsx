import { lazy, Suspense, useEffect, useState, type FormEvent } from 'react';
import { Eye, EyeOff, KeyRound, Medal, Sparkles, Star, Trophy } from 'lucide-react';
import { Link, useLocation } from 'react-router';
import { MESSAGES } from '../../../shared/messages-core.ts';
import { SIGN_IN_REFUSAL_PARAM } from '../../../shared/constants.ts';
import { useSignedInRedirect, useSignIn, type AreaLoader } from '../../lib/sign-in.ts';
import { Brand } from '../../ui/brand.tsx';
import { Button } from '../../ui/button.tsx';
import { Tabs } from '../../ui/tabs.tsx';
import { TextField } from '../../ui/text-field.tsx';
import { isDemoMode } from './demo-mode.ts';
import { DEMO_CREDENTIALS } from '../../../shared/demo-accounts.ts';
import { call } from '../../lib/api.ts';
import { cn } from '../../lib/cn.ts';
import { settings } from '../../../shared/contract/settings.ts';
import type { PublicSettings } from '../../../shared/settings.ts';
import { paths } from '../../lib/paths.ts';

/**
 * The school's name and logo (GET /api/settings/public); the page shows without them until they arrive.
 */
function usePublicSchool(): PublicSettings | null {
  const [school, setSchool] = useState<PublicSettings | null>(null);
  useEffect(() => {
    let current = true;
    call(settings.public).then(
      (settings) => current && setSchool(settings),
      () => {},
    );
    return () => {
      current = false;
    };
  }, []);
  return school;
}

type LoginRole = 'student' | 'admin' | 'familia';

/** Who signs in with what: students with their matrícula, admins and guardians with their email. */
const IDENTIFIER_FIELDS = {
  student: { label: 'Matrícula', name: 'studentId', inputMode: 'numeric', placeholder: 'Ex.: 2024001' },
  admin: { label: 'Email', name: 'email', type: 'email', placeholder: 'professor@escola.com' },
  familia: { label: 'Email', name: 'email', type: 'email', placeholder: 'seu.email@exemplo.com' },
} as const satisfies Record<LoginRole, object>;

function PasswordField({ value, onChange, error }: { value: string; onChange: (value: string) => void; error: string | undefined }) {
  const [visible, setVisible] = useState(false);
  return (
    <TextField
      label="Senha"
      name="password"
      type={visible ? 'text' : 'password'}
      autoComplete="current-password"
      value={value}
      onChange={(event) => onChange(event.target.value)}
      error={error}
      aria-required="true"
      trailing={
        <button
          type="button"
          onClick={() => setVisible((shown) => !shown)}
          aria-label={visible ? 'Ocultar senha' : 'Mostrar senha'}
          aria-pressed={visible}
          className="flex size-10 items-center justify-center rounded-lg text-slate-500 hover:bg-slate-100 hover:text-slate-800"
        >
          {visible ? <EyeOff aria-hidden="true" className="size-5" /> : <Eye aria-hidden="true" className="size-5" />}
        </button>
      }
    />
  );
}

/** A demonstration account as the box shows it: whose it is, and the two values the form takes. */
type DemoAccount = { label: string; identifier: string; password: string };

function demoAccounts(role: LoginRole): DemoAccount[] {
  const { student, admin, teachers } = DEMO_CREDENTIALS;
  if (role === 'student') return [{ label: 'Estudante', identifier: student.studentId, password: student.password }];
  if (role === 'familia') return [];
  return [{ ...admin, label: 'Coordenação' }, ...teachers.map((teacher) => ({ ...teacher, label: `Professor(a) ${teacher.name}` }))].map(
    ({ label, email, password }) => ({ label, identifier: email, password }),
  );
}

function DemoBox({ role, onFill }: { role: LoginRole; onFill: (account: DemoAccount) => void }) {
  return (
    <aside aria-label="Credenciais de demonstração" className="mt-5 rounded-2xl border border-dashed border-indigo-300 bg-indigo-50/70 p-4">
      <p className="flex items-center gap-2 text-sm font-semibold text-indigo-900">
        <KeyRound aria-hidden="true" className="size-4" />
        Credenciais de demonstração
      </p>
      <ul className="divide-y divide-indigo-200/70">
        {demoAccounts(role).map((account) => (
          <li key={account.identifier} className="py-2 last:pb-0">
            <div className="flex items-center justify-between gap-3">
              <p className="min-w-0 text-sm font-semibold text-slate-800">{account.label}</p>
              <button
                type="button"
                onClick={() => onFill(account)}
                aria-label={`Preencher: ${account.label}`}
                className="shrink-0 rounded-lg px-2.5 py-1 text-sm font-semibold text-indigo-700 underline-offset-2 hover:bg-indigo-100 hover:underline"
              >
                Preencher
              </button>
            </div>
            <dl className="mt-1 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
              {[
                [IDENTIFIER_FIELDS[role].label, account.identifier],
                ['Senha', account.password],
              ].map(([term, value]) => (
                <div key={term} className="contents">
                  <dt className="text-slate-600">{term}:</dt>
                  <dd className="font-mono font-semibold wrap-anywhere text-slate-900">{value}</dd>
                </div>
              ))}
            </dl>
          </li>
        ))}
      </ul>
    </aside>
  );
}

function LoginForm({ role, demo, loadArea }: { role: LoginRole; demo: boolean; loadArea: AreaLoader }) {
  const login = useSignIn(loadArea);
  const [identifier, setIdentifier] = useState('');
  const [password, setPassword] = useState('');

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const id = identifier.trim();
    if (!id || !password) return;
    if (role === 'student') void login.signIn({ role, input: { studentId: id, password } });
    else void login.signIn({ role, input: { email: id, password } });
  };

  const fillDemo = (account: DemoAccount) => {
    setIdentifier(account.identifier);
    setPassword(account.password);
  };

  return (
    <>
      <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4">
        <TextField
          {...IDENTIFIER_FIELDS[role]}
          autoComplete="username"
          value={identifier}
          onChange={(event) => setIdentifier(event.target.value)}
          aria-required="true"
        />
        <PasswordField
          value={password}
          onChange={(value) => {
            setPassword(value);
            login.clearRefusal();
          }}
          error={login.refusal}
        />
        <Button type="submit" size="lg" fullWidth loading={login.isPending} className="mt-1">
          {login.isPending ? MESSAGES.signingIn : 'Entrar'}
        </Button>
      </form>
      {role === 'familia' ? (
        <p className="mt-4 text-center text-sm text-slate-600">
          Primeiro acesso?{' '}
          <Link to={paths.guardianSignup} className="inline-flex min-h-11 items-center font-semibold text-indigo-700 hover:text-indigo-900">
            Criar conta com o código da carta
          </Link>
        </p>
      ) : (
        <p className="mt-4 text-center text-sm text-slate-600">Esqueceu a senha? Peça ao seu professor ou à coordenação.</p>
      )}
      {demo && role !== 'familia' && <DemoBox role={role} onFill={fillDemo} />}
    </>
  );
}

/** The sign-in with the school's accounts: a chunk of its own, fetched only where the server offers it or sent someone back. */
const SchoolAccountSignIn = lazy(() => import('./school-account-sign-in.tsx'));

const highlights = [
  { icon: Sparkles, text: 'Ganhe Méritus pelas suas conquistas' },
  { icon: Star, text: 'Acumule Estelecas, os pontos de excelência' },
  { icon: Trophy, text: 'Suba no ranking da escola' },
] as const;

/** /login: students sign in with matrícula, administrators with email. */
export function LoginPage({ loadArea }: { loadArea: AreaLoader }) {
  const endedBy = useSignedInRedirect(loadArea);
  const [role, setRole] = useState<LoginRole>('student');
  const [demo] = useState(isDemoMode);
  const school = usePublicSchool();
  // A sign-in with a school account the server refused comes back here saying why.
  const { search } = useLocation();
  const refused = new URLSearchParams(search).has(SIGN_IN_REFUSAL_PARAM);

  return (
    <div className="flex min-h-dvh flex-col bg-slate-50 lg:flex-row">
      <section
        className={cn(
          'relative overflow-hidden bg-gradient-to-br from-indigo-700 via-indigo-600 to-violet-700 px-6 pt-8',
          'pb-20 text-white lg:flex lg:w-[46%] lg:flex-col lg:justify-between lg:px-14 lg:py-12',
        )}
      >
        <div aria-hidden="true" className="pointer-events-none absolute -top-24 -right-24 size-72 rounded-full bg-white/10" />
        <div
          aria-hidden="true"
          className="pointer-events-none absolute -bottom-32 -left-16 hidden size-80 rounded-full bg-amber-300/20 lg:block"
        />
        <Brand inverted className="relative" school={school ?? undefined} />
        <div className="relative mt-6 lg:mt-0">
          <h1 className="text-3xl font-extrabold tracking-tight sm:text-4xl lg:text-5xl lg:leading-tight">
            Seu esforço vale <span className="text-amber-300">Méritus</span>.
          </h1>
          <p className="mt-3 max-w-md text-base text-indigo-100 lg:text-lg">
            O portal da escola para ganhar, guardar e compartilhar Méritus e Estelecas com a sua turma.
          </p>
          <ul className="mt-8 hidden flex-col gap-4 lg:flex">
            {highlights.map(({ icon: Icon, text }) => (
              <li key={text} className="flex items-center gap-3 text-indigo-50">
                <span className="flex size-10 items-center justify-center rounded-xl bg-white/15">
                  <Icon aria-hidden="true" className="size-5" />
                </span>
                {text}
              </li>
            ))}
          </ul>
        </div>
        <p className="relative hidden items-center gap-2 text-sm text-indigo-100 lg:flex">
          <Medal aria-hidden="true" className="size-4" />1 Méritus = R$ 1,00
        </p>
      </section>

      <main className="-mt-12 flex flex-1 items-start justify-center px-4 pb-10 lg:mt-0 lg:items-center lg:px-10">
        <div className="relative w-full max-w-md rounded-3xl bg-white p-6 shadow-xl ring-1 ring-slate-200 sm:p-8 lg:shadow-lg">
          <h2 className="text-2xl font-bold tracking-tight text-slate-900">Entrar</h2>
          <p className="mt-1 text-sm text-slate-600">Escolha seu perfil e use seus dados de acesso.</p>
          {endedBy && (
            <p role="alert" className="mt-4 rounded-xl bg-amber-50 p-3 text-sm font-medium text-amber-900 ring-1 ring-amber-200">
              {endedBy}
            </p>
          )}
          {refused && (
            <Suspense fallback={null}>
              <SchoolAccountSignIn refusal={search} />
            </Suspense>
          )}
          {/* Words only: three tabs fit a phone's card, and the login route keeps within its script budget (performance.spec). */}
          <Tabs
            label="Tipo de acesso"
            className="mt-5"
            compact
            value={role}
            onChange={setRole}
            items={[
              {
                id: 'student',
                label: 'Estudante',
                panel: <LoginForm key="student" role="student" demo={demo} loadArea={loadArea} />,
              },
              {
                id: 'admin',
                label: 'Administrador',
                panel: <LoginForm key="admin" role="admin" demo={demo} loadArea={loadArea} />,
              },
              {
                id: 'familia',
                label: 'Responsável',
                panel: <LoginForm key="familia" role="familia" demo={demo} loadArea={loadArea} />,
              },
            ]}
          />
          {school && school.signInProviders.length > 0 && (
            <Suspense fallback={null}>
              <SchoolAccountSignIn providers={school.signInProviders} />
            </Suspense>
          )}
          <p className="mt-6 border-t border-slate-100 pt-4 text-center text-sm">
            <Link to={paths.privacy} className="inline-flex min-h-11 items-center font-medium text-indigo-700 hover:text-indigo-900">
              Privacidade
            </Link>
          </p>
        </div>
      </main>
    </div>
  );
}
