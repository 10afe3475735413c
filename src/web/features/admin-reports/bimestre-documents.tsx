import { useState, type ReactNode } from 'react';
import { Award, FileSpreadsheet, FileText, Files } from 'lucide-react';
import { Card } from '../../ui/card.tsx';
import { Button } from '../../ui/button.tsx';
import { SelectField } from '../../ui/select-field.tsx';
import { toApiError } from '../../lib/api.ts';
import { ERROR_MESSAGES } from '../../../shared/errors.ts';
import { urlOf } from '../../../shared/contract/route.ts';
import { routes } from '../../../shared/contract/routes.ts';
import { TOP_CERTIFICATES, type ReportFilterValues } from '../../../shared/reports.ts';

/** The name a download's Content-Disposition gives (its UTF-8 `filename*`, else the ASCII one), or `fallback`. */
function fileNameOf(header: string | null, fallback: string): string {
  const utf8 = /filename\*=UTF-8''([^;]+)/i.exec(header ?? '')?.[1];
  if (utf8) return decodeURIComponent(utf8);
  return /filename="([^"]+)"/i.exec(header ?? '')?.[1] ?? fallback;
}

/**
 * A button that downloads a generated file through fetch rather than a link: a refusal (nobody to certify, a turma no
 * longer the teacher's) shows as its pt-BR message instead of being saved as a file, and a long PDF shows it is being made.
 */
function DownloadButton({
  url,
  fallbackName,
  icon,
  disabled,
  variant = 'secondary',
  children,
}: {
  url: string;
  fallbackName: string;
  icon: ReactNode;
  disabled?: boolean;
  variant?: 'primary' | 'secondary';
  children: ReactNode;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const download = async () => {
    setBusy(true);
    setError(null);
    try {
      const response = await fetch(url, { credentials: 'same-origin' });
      if (!response.ok) {
        setError((await toApiError(response)).message);
        return;
      }
      const link = document.createElement('a');
      link.href = URL.createObjectURL(await response.blob());
      link.download = fileNameOf(response.headers.get('Content-Disposition'), fallbackName);
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(link.href), 1000);
    } catch {
      setError(ERROR_MESSAGES.network);
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="flex flex-col items-start gap-2">
      <Button variant={variant} icon={icon} loading={busy} disabled={disabled} onClick={() => void download()}>
        {busy ? 'Gerando…' : children}
      </Button>
      {error && (
        <p role="alert" className="text-sm font-medium text-rose-700">
          {error}
        </p>
      )}
    </div>
  );
}

/** Every table of the screen in one workbook, a sheet each, for the page's filters. */
export function WorkbookButton({ query, disabled }: { query: ReportFilterValues; disabled: boolean }) {
  return (
    <DownloadButton
      url={urlOf(routes.reports.workbook, { query })}
      fallbackName="relatorio.xlsx"
      icon={<FileSpreadsheet aria-hidden="true" className="size-4" />}
      variant="primary"
      disabled={disabled}
    >
      Baixar todas as tabelas (XLSX)
    </DownloadButton>
  );
}

const COUNTS = [1, 3, 5, TOP_CERTIFICATES.max];

/**
 * The end of a bimestre in one sitting: a turma's report and its students' statements, and the period's top students'
 * certificates, for the page's period. `turmas`: those the member may choose; `chosen`: the page's turma filter.
 */
export function BimestreDocuments({
  periodQuery,
  periodText,
  turmas,
  chosen,
}: {
  periodQuery: ReportFilterValues;
  periodText: string;
  turmas: readonly string[];
  chosen: readonly string[];
}) {
  const [picked, setPicked] = useState('');
  const turma = picked || (chosen.length === 1 ? chosen[0]! : '');
  const [topOf, setTopOf] = useState('');
  const [count, setCount] = useState<number>(TOP_CERTIFICATES.default);
  const days = { period: periodQuery.period, year: periodQuery.year, from: periodQuery.from, to: periodQuery.to };
  const turmaOptions = turmas.map((name) => ({ value: name, label: name }));
  const icon = (Icon: typeof FileText) => <Icon aria-hidden="true" className="size-4" />;

  return (
    <div className="grid grid-cols-1 gap-4 xl:grid-cols-2">
      <Card title="Documentos da turma (PDF)">
        <p className="-mt-1 mb-3 text-xs text-slate-600">
          Do período escolhido ({periodText}). O relatório traz os indicadores da turma e uma linha por aluno: saldos no início e no fim,
          ganhos, transferências, gastos na Loja, Estelecas e tags. Os extratos trazem um aluno por página.
        </p>
        <SelectField
          label="Turma dos documentos"
          placeholder="Escolha a turma"
          value={turma}
          options={turmaOptions}
          onChange={(event) => setPicked(event.target.value)}
        />
        <div className="mt-3 flex flex-wrap items-start gap-3">
          <DownloadButton
            url={urlOf(routes.reports.turmaReport, { query: { ...days, turma } })}
            fallbackName="relatorio-turma.pdf"
            icon={icon(FileText)}
            disabled={!turma}
          >
            Relatório da turma
          </DownloadButton>
          <DownloadButton
            url={urlOf(routes.reports.turmaStatements, { query: { ...days, turma } })}
            fallbackName="extratos.pdf"
            icon={icon(Files)}
            disabled={!turma}
          >
            Extratos da turma
          </DownloadButton>
        </div>
      </Card>
      <Card title="Certificados dos destaques (PDF, A4)">
        <p className="-mt-1 mb-3 text-xs text-slate-600">
          Para os alunos que mais ganharam Méritus (adições e recompensas) no período escolhido ({periodText}). Empates no último lugar
          também recebem certificado.
        </p>
        <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
          <SelectField
            label="Destaques de"
            value={topOf}
            options={[{ value: '', label: 'Todas as turmas' }, ...turmaOptions]}
            onChange={(event) => setTopOf(event.target.value)}
          />
          <SelectField
            label="Quantos alunos"
            value={String(count)}
            options={COUNTS.map((value) => ({ value: String(value), label: value === 1 ? '1º lugar' : `${value} primeiros` }))}
            onChange={(event) => setCount(Number(event.target.value))}
          />
        </div>
        <div className="mt-3">
          <DownloadButton
            url={urlOf(routes.reports.topCertificates, { query: { ...days, ...(topOf ? { turma: topOf } : {}), count } })}
            fallbackName="certificados.pdf"
            icon={icon(Award)}
          >
            Baixar certificados
          </DownloadButton>
        </div>
      </Card>
    </div>
  );
}
