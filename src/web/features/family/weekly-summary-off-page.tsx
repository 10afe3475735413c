import { useEffect, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { CircleCheck, MailX, TriangleAlert } from 'lucide-react';
import { mail } from '../../../shared/contract/mail.ts';
import { MAIL_TEXTS } from '../../../shared/mail-texts.ts';
import { ERROR_MESSAGES } from '../../../shared/errors.ts';
import { call, isRefusal } from '../../lib/api.ts';
import { paths } from '../../lib/paths.ts';
import { Spinner } from '../../ui/spinner.tsx';
import { PublicPage } from '../../ui/public-page.tsx';

type State = { step: 'working' } | { step: 'done'; message: string } | { step: 'refused'; message: string };

/**
 * /emails/resumo-semanal: the weekly summary's one-click opt-out (decision 038). Opening the email's signed link is the
 * click: the page sends it once and says what happened, in pt-BR; no sign-in needed.
 */
export default function WeeklySummaryOffPage() {
  const [search] = useSearchParams();
  const [state, setState] = useState<State>({ step: 'working' });
  const sent = useRef(false);
  useEffect(() => {
    // Once, though React runs an effect twice in development.
    if (sent.current) return;
    sent.current = true;
    const guardian = search.get('responsavel') ?? '';
    const signature = search.get('assinatura') ?? '';
    call(mail.unsubscribe, { body: { guardian, signature } }).then(
      (result) => setState({ step: 'done', message: result.message }),
      (error: unknown) =>
        setState({
          step: 'refused',
          message: isRefusal(error) ? error.message : 'Não foi possível desligar o resumo agora. Tente abrir o link de novo.',
        }),
    );
  }, [search]);
  return (
    <PublicPage icon={MailX} title="Resumo semanal por email">
      {state.step === 'working' ? (
        <p className="flex items-center gap-3 text-slate-700" role="status">
          <Spinner className="size-5" /> Desligando o resumo semanal…
        </p>
      ) : state.step === 'done' ? (
        <div role="status" className="flex flex-col gap-2">
          <p className="flex items-start gap-2 font-semibold text-emerald-800">
            <CircleCheck aria-hidden="true" className="mt-0.5 size-5 shrink-0" />
            {state.message}
          </p>
          <p className="text-slate-700">{MAIL_TEXTS.unsubscribedHint}</p>
        </div>
      ) : (
        <p role="alert" className="flex items-start gap-2 font-semibold text-red-800">
          <TriangleAlert aria-hidden="true" className="mt-0.5 size-5 shrink-0" />
          {state.message || ERROR_MESSAGES.mail_link_invalid}
        </p>
      )}
      <Link
        to={paths.login}
        className="inline-flex min-h-11 items-center self-start text-sm font-semibold text-indigo-700 hover:text-indigo-900"
      >
        Entrar na área da família
      </Link>
    </PublicPage>
  );
}
