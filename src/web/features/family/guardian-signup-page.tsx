import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { ArrowLeft, HeartHandshake } from 'lucide-react';
import { toast } from 'react-hot-toast';
import { families } from '../../../shared/contract/families.ts';
import { MESSAGES } from '../../../shared/messages-core.ts';
import { call, isRefusal } from '../../lib/api.ts';
import { paths } from '../../lib/paths.ts';
import type { AreaLoader } from '../../lib/sign-in.ts';
import { Button } from '../../ui/button.tsx';
import { FormAlert } from '../../ui/form-alert.tsx';
import { TextField } from '../../ui/text-field.tsx';

/** The steps the letter gives, repeated where they are done. */
const STEPS = [
  'Digite o código da carta que a escola entregou (ele vale por 30 dias e só uma vez).',
  'Informe seu nome, seu email e uma senha de pelo menos 8 caracteres.',
  'Pronto: você acompanha seu filho em Meus filhos. Outro filho se adiciona com o código da carta dele.',
] as const;

type Fields = { code: string; name: string; email: string; password: string };

/** /responsaveis: a guardian's first access, with the code of a child's letter (its QR code opens this page with the code). */
export default function GuardianSignupPage({ loadArea }: { loadArea: AreaLoader }) {
  const [search] = useSearchParams();
  const navigate = useNavigate();
  const [fields, setFields] = useState<Fields>({ code: search.get('codigo') ?? '', name: '', email: '', password: '' });
  const [pending, setPending] = useState(false);
  const [refusal, setRefusal] = useState<{ message: string; fields: Record<string, string> }>();
  const set = (name: keyof Fields) => (event: { target: { value: string } }) => setFields({ ...fields, [name]: event.target.value });

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (pending) return;
    setPending(true);
    setRefusal(undefined);
    const area = loadArea('familia');
    area.catch(() => undefined);
    try {
      const user = await call(families.signup, { body: fields });
      const [shell] = await area;
      shell.setSessionUser(user);
      toast.success(MESSAGES.welcome(fields.name));
      void navigate(paths.familia.home, { replace: true });
    } catch (error) {
      setRefusal(
        isRefusal(error)
          ? { message: error.message, fields: error.fields ?? {} }
          : { message: 'Não foi possível criar a conta agora. Tente de novo.', fields: {} },
      );
      setPending(false);
    }
  };

  return (
    <div className="min-h-dvh bg-slate-50 px-4 py-8 sm:py-12">
      <main className="mx-auto flex max-w-xl flex-col gap-6 rounded-3xl bg-white p-6 shadow-sm ring-1 ring-slate-200 sm:p-10">
        <Link
          to={paths.login}
          className="inline-flex min-h-11 items-center gap-2 self-start text-sm font-semibold text-indigo-700 hover:text-indigo-900"
        >
          <ArrowLeft aria-hidden="true" className="size-4" />
          Voltar ao login
        </Link>
        <header className="flex items-start gap-3">
          <span className="flex size-11 shrink-0 items-center justify-center rounded-2xl bg-indigo-50 text-indigo-700">
            <HeartHandshake aria-hidden="true" className="size-6" />
          </span>
          <div className="min-w-0">
            <h1 className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">Acesso dos responsáveis</h1>
            <p className="mt-1 text-slate-600">Crie sua conta com o código da carta da escola.</p>
          </div>
        </header>
        <ol className="flex list-decimal flex-col gap-1.5 pl-5 text-sm text-slate-700">
          {STEPS.map((step) => (
            <li key={step}>{step}</li>
          ))}
        </ol>
        <form onSubmit={(event) => void onSubmit(event)} noValidate className="flex flex-col gap-4">
          <FormAlert message={refusal && Object.keys(refusal.fields).length === 0 ? refusal.message : undefined} />
          <TextField
            label="Código da carta"
            name="code"
            autoComplete="off"
            autoCapitalize="characters"
            placeholder="XXXX-XXXX-XXXX"
            value={fields.code}
            onChange={set('code')}
            error={refusal?.fields.code}
            aria-required="true"
          />
          <TextField
            label="Seu nome"
            name="name"
            autoComplete="name"
            value={fields.name}
            onChange={set('name')}
            error={refusal?.fields.name}
            aria-required="true"
          />
          <TextField
            label="Email"
            name="email"
            type="email"
            autoComplete="email"
            value={fields.email}
            onChange={set('email')}
            error={refusal?.fields.email}
            aria-required="true"
          />
          <TextField
            label="Senha"
            name="password"
            type="password"
            autoComplete="new-password"
            hint="Pelo menos 8 caracteres"
            value={fields.password}
            onChange={set('password')}
            error={refusal?.fields.password}
            aria-required="true"
          />
          <Button type="submit" size="lg" fullWidth loading={pending}>
            Criar conta
          </Button>
        </form>
      </main>
    </div>
  );
}
