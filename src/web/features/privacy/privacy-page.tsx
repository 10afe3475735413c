import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { ArrowLeft, ShieldCheck } from 'lucide-react';
import { lgpd } from '../../../shared/contract/lgpd.ts';
import type { PrivacyPage as PrivacyAnswer } from '../../../shared/lgpd.ts';
import { call } from '../../lib/api.ts';
import { paths } from '../../lib/paths.ts';
import { Spinner } from '../../ui/spinner.tsx';

/** What the school keeps, as the privacy page lists it (decision 030). */
const KEPT = [
  'Nome, matrícula e turma de cada aluno.',
  'Email e data de nascimento, quando a escola os informa.',
  'Foto, quando a escola a cadastra: os colegas só a veem com o consentimento de imagem assinado; sem ele, veem as iniciais.',
  'Saldos de Méritus e Estelecas, o histórico de operações, etiquetas da semana e pedidos da Loja.',
  'Registros de acesso (entradas no sistema) e de quem da equipe viu os dados pessoais de cada aluno.',
] as const;

/** /privacidade: public, reached from the login; the school's name and the contact it wrote, nothing else. */
export default function PrivacyPage() {
  // Outside the signed-in app (no query client), read once like the login's school name; a failure shows the page without them.
  const [page, setPage] = useState<{ data?: PrivacyAnswer; isPending: boolean }>({ isPending: true });
  useEffect(() => {
    let current = true;
    call(lgpd.privacyPage).then(
      (data) => current && setPage({ data, isPending: false }),
      () => current && setPage({ isPending: false }),
    );
    return () => {
      current = false;
    };
  }, []);
  return (
    <div className="min-h-dvh bg-slate-50 px-4 py-8 sm:py-12">
      <main className="mx-auto flex max-w-2xl flex-col gap-6 rounded-3xl bg-white p-6 shadow-sm ring-1 ring-slate-200 sm:p-10">
        <Link
          to={paths.login}
          className="inline-flex min-h-11 items-center gap-2 self-start text-sm font-semibold text-indigo-700 hover:text-indigo-900"
        >
          <ArrowLeft aria-hidden="true" className="size-4" />
          Voltar ao login
        </Link>
        <header className="flex items-start gap-3">
          <span className="flex size-11 shrink-0 items-center justify-center rounded-2xl bg-indigo-50 text-indigo-700">
            <ShieldCheck aria-hidden="true" className="size-6" />
          </span>
          <div className="min-w-0">
            <h1 className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">Privacidade</h1>
            <p className="mt-1 text-slate-600">{page.data ? page.data.schoolName : 'A escola'} e os dados dos alunos no Méritus</p>
          </div>
        </header>
        {page.isPending ? (
          <Spinner className="size-6" />
        ) : (
          <>
            <section aria-labelledby="kept" className="flex flex-col gap-2">
              <h2 id="kept" className="text-lg font-semibold text-slate-900">
                O que guardamos
              </h2>
              <ul className="flex list-disc flex-col gap-1.5 pl-5 text-slate-700">
                {KEPT.map((item) => (
                  <li key={item}>{item}</li>
                ))}
              </ul>
              <p className="text-slate-700">
                Os dados servem apenas às atividades da escola no Méritus e não são vendidos nem compartilhados com terceiros.
              </p>
            </section>
            <section aria-labelledby="rights" className="flex flex-col gap-2">
              <h2 id="rights" className="text-lg font-semibold text-slate-900">
                Seus direitos
              </h2>
              <p className="text-slate-700">
                Alunos e responsáveis podem pedir à escola uma cópia de todos os dados, a correção ou a exclusão deles (Lei Geral de
                Proteção de Dados, art. 18). Na exclusão, o nome passa a ser anônimo e email, data de nascimento e foto são apagados; as
                operações continuam, sem identificar o aluno, para que os saldos dos colegas fiquem corretos.
              </p>
            </section>
            <section aria-labelledby="contact" className="flex flex-col gap-2">
              <h2 id="contact" className="text-lg font-semibold text-slate-900">
                Contato
              </h2>
              <p className="break-words whitespace-pre-line text-slate-700">
                {page.data?.contact || 'A escola ainda não informou um contato para privacidade. Procure a secretaria da escola.'}
              </p>
            </section>
          </>
        )}
      </main>
    </div>
  );
}
