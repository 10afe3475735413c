import { useState, type FormEvent } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { HeartHandshake } from 'lucide-react';
import { toast } from 'react-hot-toast';
import { families } from '../../../shared/contract/families.ts';
import { MESSAGES } from '../../../shared/messages-core.ts';
import { call, isRefusal } from '../../lib/api.ts';
import { paths } from '../../lib/paths.ts';
import type { AreaLoader } from '../../lib/sign-in.ts';
import { Button } from '../../ui/button.tsx';
import { FormAlert } from '../../ui/form-alert.tsx';
import { TextField } from '../../ui/text-field.tsx';
import { LetterCodeField } from './letter-code-field.tsx';
import { PublicPage } from '../../ui/public-page.tsx';

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
    <PublicPage
      icon={HeartHandshake}
      title="Acesso dos responsáveis"
      subtitle="Crie sua conta com o código da carta da escola."
      backToLogin
    >
      <ol className="flex list-decimal flex-col gap-1.5 pl-5 text-sm text-slate-700">
        {STEPS.map((step) => (
          <li key={step}>{step}</li>
        ))}
      </ol>
      <form onSubmit={(event) => void onSubmit(event)} noValidate className="flex flex-col gap-4">
        <FormAlert message={refusal && Object.keys(refusal.fields).length === 0 ? refusal.message : undefined} />
        <LetterCodeField value={fields.code} onChange={set('code')} error={refusal?.fields.code} aria-required="true" />
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
    </PublicPage>
  );
}
