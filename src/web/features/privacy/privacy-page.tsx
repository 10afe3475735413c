import { useEffect, useState } from 'react';
import { ShieldCheck } from 'lucide-react';
import { lgpd } from '../../../shared/contract/lgpd.ts';
import type { PrivacyPage as PrivacyAnswer } from '../../../shared/lgpd.ts';
import { call } from '../../lib/api.ts';
import { Spinner } from '../../ui/spinner.tsx';
import { PublicPage } from '../../ui/public-page.tsx';

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
    <PublicPage
      icon={ShieldCheck}
      title="Privacidade"
      subtitle={`${page.data ? page.data.schoolName : 'A escola'} e os dados dos alunos no Méritus`}
      wide
      backToLogin
    >
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
              Alunos e responsáveis podem pedir à escola uma cópia de todos os dados, a correção ou a exclusão deles (Lei Geral de Proteção
              de Dados, art. 18). Na exclusão, o nome passa a ser anônimo e email, data de nascimento e foto são apagados; as operações
              continuam, sem identificar o aluno, para que os saldos dos colegas fiquem corretos.
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
    </PublicPage>
  );
}
