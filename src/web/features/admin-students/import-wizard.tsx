import { useId, useMemo, useRef, useState } from 'react';
import { AlertTriangle, ArrowRight, Check, CheckCircle2, Download, FileSpreadsheet, FileUp, IdCard, Undo2, XCircle } from 'lucide-react';
import {
  ADMIN_STUDENT_TEXTS,
  IMPORT_MAX_BYTES,
  type ImportPreview,
  type ImportResult,
  type ImportTurmaChoice,
} from '../../../shared/admin-students.ts';
import { urlOf } from '../../../shared/contract/route.ts';
import { routes } from '../../../shared/contract/routes.ts';
import { ERROR_MESSAGES } from '../../../shared/errors.ts';
import { isApiError } from '../../lib/api.ts';
import { cn } from '../../lib/cn.ts';
import { countOf, formatDate, formatNumber, formatSize } from '../../lib/format.ts';
import { dayIn, DEFAULT_TIME_ZONE } from '../../../shared/format.ts';
import { useSchoolSettings } from '../../lib/school-settings.ts';
import { toast, toastFailure } from '../../lib/toast.ts';
import { Badge } from '../../ui/badge.tsx';
import { Button } from '../../ui/button.tsx';
import { Modal } from '../../ui/modal.tsx';
import { EmailText } from '../../ui/email-text.tsx';
import { useImportPreview, useImportStudents } from './students-queries.ts';
import { saveFile } from '../../lib/file-download.ts';
import { ImportedAccessCards } from './access-cards-dialog.tsx';
import { ACCESS_CARDS_MAX } from '../../../shared/student-access.ts';

const SHOWN_ROWS = 200;
/** The file chooser: CSV in its spellings (Excel's "Texto Unicode" is saved as .txt, UTF-16, tab-separated) and .xlsx. */
const ACCEPTED_FILES = [
  '.csv',
  '.txt',
  '.tsv',
  '.xlsx',
  'text/csv',
  'text/plain',
  'text/tab-separated-values',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
].join(',');
const PREVIEW_COLUMNS = ['Linha', 'Matrícula', 'Nome', 'Turma', 'Email', 'Nascimento', 'Situação'];

/** Saves text as a file the browser downloads. */
export function downloadText(text: string, fileName: string, type = 'text/csv;charset=utf-8'): void {
  saveFile(new Blob([text], { type }), fileName);
}

function failure(error: unknown): string {
  return isApiError(error) ? error.message : ERROR_MESSAGES.internal;
}

/** Saves the rows with problems (the file's columns plus 'Problema') to fix and import again. */
function downloadProblems(csv: string, timeZone: string): void {
  downloadText(csv, `linhas-com-problemas-${dayIn(timeZone, new Date())}.csv`);
}

/**
 * Import students from a spreadsheet a school secretary has (CSV or .xlsx, or the template): choose the file, see
 * each row valid or what is wrong, confirm the turmas that only resemble the school's, create all valid rows at
 * once, then download the generated passwords (once) and the rows left out.
 */
export function ImportWizard({ onClose }: { onClose: () => void }) {
  const schoolTimeZone = useSchoolSettings().data?.school.timeZone ?? DEFAULT_TIME_ZONE;
  const inputId = useId();
  const [file, setFile] = useState<File | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [onlyProblems, setOnlyProblems] = useState(false);
  // The turma suggestions confirmed, sent with every preview and with the import; the last preview stays on screen
  // while the next one (after a confirmation) is read.
  const [turmas, setTurmas] = useState<ImportTurmaChoice[]>([]);
  const [shown, setShown] = useState<ImportPreview | null>(null);
  const [result, setResult] = useState<ImportResult | null>(null);
  const [downloaded, setDownloaded] = useState(false);
  // The access cards replace the passwords shown now (the CSV's no longer work): 'asking' while the confirmation is open.
  const [cards, setCards] = useState<'no' | 'asking' | 'printed'>('no');
  // Set when the user tries to close before the passwords are saved: the dialog stays and says why.
  const [closeTried, setCloseTried] = useState(false);
  const downloadRef = useRef<HTMLButtonElement>(null);
  const preview = useImportPreview();
  const importing = useImportStudents();
  const data = shown;

  const rows = useMemo(() => {
    const all = data?.rows ?? [];
    return onlyProblems ? all.filter((row) => !row.valid) : all;
  }, [data, onlyProblems]);

  const read = (chosen: File, confirmed: ImportTurmaChoice[]) => {
    setTurmas(confirmed);
    preview.mutate(
      { file: chosen, turmas: confirmed },
      {
        onSuccess: (value) => {
          setShown(value);
          setFileError(null);
        },
        onError: (error) => setFileError(failure(error)),
      },
    );
  };

  const choose = (chosen: File | undefined) => {
    if (!chosen) return;
    preview.reset();
    setShown(null);
    setOnlyProblems(false);
    if (chosen.size > IMPORT_MAX_BYTES) {
      setFile(null);
      setFileError(ERROR_MESSAGES.import_too_large);
      return;
    }
    setFile(chosen);
    setFileError(null);
    read(chosen, []);
  };

  /** Confirms (or takes back) suggestions: the preview is read again with them, and counts them valid. */
  const confirmTurmas = (changed: ImportTurmaChoice[], confirm: boolean) => {
    if (!file) return;
    const others = turmas.filter((choice) => !changed.some((item) => item.from === choice.from));
    read(file, confirm ? [...others, ...changed] : others);
  };

  const runImport = () => {
    if (!file) return;
    importing.mutate(
      { file, turmas },
      {
        onSuccess: (value) => {
          setResult(value);
          toast.success(value.message);
        },
        onError: (error) => {
          toastFailure(ADMIN_STUDENT_TEXTS.importError, error);
          setFileError(failure(error));
        },
      },
    );
  };

  const download = () => {
    if (!result) return;
    // Named by the school's day, as the server names its exports.
    downloadText(result.credentialsCsv, `senhas-iniciais-${dayIn(schoolTimeZone, new Date())}.csv`);
    setDownloaded(true);
  };

  if (result) {
    const holdOpen = () => {
      setCloseTried(true);
      downloadRef.current?.focus();
    };
    return (
      <Modal
        open
        onClose={onClose}
        dismissible={downloaded}
        onBlockedClose={holdOpen}
        size="lg"
        title={result.message}
        description={result.skipped > 0 ? ADMIN_STUDENT_TEXTS.importSkipped(result.skipped) : undefined}
        footer={
          <>
            <Button variant="secondary" onClick={downloaded ? onClose : holdOpen}>
              Concluir
            </Button>
            {result.credentials.length <= ACCESS_CARDS_MAX && cards !== 'printed' && (
              <Button variant="secondary" onClick={() => setCards('asking')} icon={<IdCard aria-hidden="true" className="size-4" />}>
                Imprimir cartões de acesso
              </Button>
            )}
            {cards !== 'printed' && (
              <Button ref={downloadRef} onClick={download} icon={<Download aria-hidden="true" className="size-4" />}>
                Baixar senhas (CSV)
              </Button>
            )}
          </>
        }
      >
        {cards === 'asking' && (
          <ImportedAccessCards
            students={result.credentials}
            onCancel={() => setCards('no')}
            onDone={() => {
              setCards('printed');
              setDownloaded(true);
            }}
          />
        )}
        <div className="flex flex-col gap-4">
          {cards !== 'printed' && (
            <p className="flex items-start gap-2 rounded-2xl bg-amber-50 p-3 text-sm text-amber-900 ring-1 ring-amber-200">
              <AlertTriangle aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
              As senhas iniciais aparecem só agora. Baixe o arquivo ou imprima os cartões de acesso para entregá-las aos alunos antes de
              fechar esta janela.
            </p>
          )}
          {result.problemsCsv && (
            <div className="flex flex-wrap items-center justify-between gap-2 rounded-2xl bg-rose-50 p-3 text-sm text-rose-900 ring-1 ring-rose-200">
              <span>As linhas não importadas podem ser corrigidas no arquivo e importadas de novo.</span>
              <Button
                variant="secondary"
                size="sm"
                onClick={() => downloadProblems(result.problemsCsv!, schoolTimeZone)}
                icon={<Download aria-hidden="true" className="size-4" />}
              >
                Baixar linhas com problemas (CSV)
              </Button>
            </div>
          )}
          {downloaded ? (
            <p role="status" className="flex items-center gap-2 text-sm font-medium text-emerald-700">
              <CheckCircle2 aria-hidden="true" className="size-4" />
              {cards === 'printed'
                ? 'Cartões de acesso baixados. As senhas do arquivo CSV deixaram de valer: entregue os cartões.'
                : 'Arquivo de senhas baixado.'}
            </p>
          ) : (
            <p role="alert" className="text-sm font-medium text-red-700">
              {closeTried ? ADMIN_STUDENT_TEXTS.importPasswordsFirst : ''}
            </p>
          )}
          <div className="max-h-72 overflow-auto rounded-xl ring-1 ring-slate-200">
            <table className="w-full text-left text-sm">
              <caption className="sr-only">Alunos importados</caption>
              <thead className="sticky top-0 bg-slate-50 text-xs text-slate-600 uppercase">
                <tr>
                  <th scope="col" className="px-3 py-2 font-semibold">
                    Matrícula
                  </th>
                  <th scope="col" className="px-3 py-2 font-semibold">
                    Nome
                  </th>
                  <th scope="col" className="px-3 py-2 font-semibold">
                    Turma
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {result.credentials.slice(0, SHOWN_ROWS).map((row) => (
                  <tr key={row.studentId}>
                    <td className="px-3 py-2 font-mono text-slate-800">{row.studentId}</td>
                    <td className="px-3 py-2 text-slate-900">{row.name}</td>
                    <td className="px-3 py-2 whitespace-nowrap text-slate-700">{row.grade}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </div>
      </Modal>
    );
  }

  const busy = preview.isPending || importing.isPending;
  return (
    <Modal
      open
      onClose={onClose}
      dismissible={!busy}
      size="xl"
      title="Importar alunos"
      description="Planilha do Excel (.xlsx) ou CSV com as colunas matrícula, nome, email, turma e data de nascimento."
      footer={
        <>
          <Button variant="secondary" onClick={onClose} disabled={busy}>
            Cancelar
          </Button>
          <Button
            onClick={runImport}
            disabled={!data || data.validCount === 0 || preview.isPending}
            loading={importing.isPending}
            blocksDoubleClick
          >
            {data && data.validCount > 0 ? `Importar ${countOf(data.validCount, 'aluno', 'alunos')}` : 'Importar'}
          </Button>
        </>
      }
    >
      <div className="flex flex-col gap-4">
        <p className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-slate-700">
          <span>Baixe o modelo com as colunas certas:</span>
          <a
            href={urlOf(routes.adminStudents.importTemplate, { query: { format: 'xlsx' } })}
            download
            className="inline-flex items-center gap-1 font-semibold text-indigo-700 underline-offset-2 hover:underline"
          >
            <Download aria-hidden="true" className="size-4" />
            Modelo Excel (.xlsx)
          </a>
          <a
            href={urlOf(routes.adminStudents.importTemplate, { query: { format: 'csv' } })}
            download
            className="inline-flex items-center gap-1 font-semibold text-indigo-700 underline-offset-2 hover:underline"
          >
            <Download aria-hidden="true" className="size-4" />
            Modelo CSV
          </a>
        </p>
        <label
          htmlFor={inputId}
          className={cn(
            'flex cursor-pointer flex-col items-center justify-center gap-1 rounded-2xl border-2 border-dashed',
            'border-slate-300 bg-slate-50 px-4 py-6 text-center transition-colors focus-within:border-indigo-500',
            'focus-within:ring-2 focus-within:ring-indigo-500/40 hover:border-indigo-400 hover:bg-indigo-50/50',
          )}
        >
          {file ? (
            <FileSpreadsheet aria-hidden="true" className="size-7 text-indigo-600" />
          ) : (
            <FileUp aria-hidden="true" className="size-7 text-indigo-600" />
          )}
          <span className="font-semibold text-slate-900">{file ? file.name : 'Escolher planilha (.xlsx ou CSV)'}</span>
          <span className="text-xs text-slate-600">
            {file ? `${formatSize(file.size)} · clique para trocar` : 'Até 2 MB e 5.000 linhas; a primeira linha é o cabeçalho.'}
          </span>
          <input
            id={inputId}
            type="file"
            accept={ACCEPTED_FILES}
            aria-label="Planilha de alunos"
            className="sr-only"
            disabled={busy}
            onChange={(event) => {
              choose(event.target.files?.[0]);
              event.target.value = '';
            }}
          />
        </label>

        {preview.isPending && (
          <p role="status" className="text-center text-sm text-slate-600">
            Lendo o arquivo...
          </p>
        )}
        {fileError && (
          <p role="alert" className="rounded-xl bg-rose-50 px-3 py-2 text-sm font-medium text-rose-800 ring-1 ring-rose-200">
            {fileError}
          </p>
        )}

        {data && (
          <>
            <div className="flex flex-wrap items-center justify-between gap-x-4 gap-y-2">
              <div className="flex flex-wrap items-center gap-2">
                <Badge tone="emerald" icon={<CheckCircle2 aria-hidden="true" className="size-3.5" />}>
                  {countOf(data.validCount, 'válida', 'válidas')}
                </Badge>
                <Badge tone={data.invalidCount ? 'rose' : 'slate'} icon={<XCircle aria-hidden="true" className="size-3.5" />}>
                  {formatNumber(data.invalidCount)} com problemas
                </Badge>
                <span className="text-xs text-slate-600">
                  {data.delimiter === null
                    ? 'Planilha do Excel: primeira aba'
                    : `Separador: “${data.delimiter === '\t' ? 'tab' : data.delimiter}”`}
                </span>
              </div>
              {data.invalidCount > 0 && (
                <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
                  <label className="flex items-center gap-2 text-sm text-slate-700">
                    <input
                      type="checkbox"
                      checked={onlyProblems}
                      onChange={(event) => setOnlyProblems(event.target.checked)}
                      className="size-4 accent-indigo-600"
                    />
                    Só linhas com problemas
                  </label>
                  {data.problemsCsv && (
                    <Button
                      variant="secondary"
                      size="sm"
                      onClick={() => downloadProblems(data.problemsCsv!, schoolTimeZone)}
                      icon={<Download aria-hidden="true" className="size-4" />}
                    >
                      Baixar linhas com problemas
                    </Button>
                  )}
                </div>
              )}
            </div>
            {data.turmaSuggestions.length > 0 && (
              <TurmaSuggestions
                suggestions={data.turmaSuggestions}
                busy={busy}
                onConfirm={(changed) => confirmTurmas(changed, true)}
                onUndo={(changed) => confirmTurmas(changed, false)}
              />
            )}
            <ul className="flex max-h-[50dvh] flex-col gap-2 overflow-auto md:hidden" aria-label="Pré-visualização da importação">
              {rows.slice(0, SHOWN_ROWS).map((row) => (
                <li
                  key={row.line}
                  className={cn('rounded-xl p-3 text-sm ring-1', row.valid ? 'bg-white ring-slate-200' : 'bg-rose-50/60 ring-rose-200')}
                >
                  <div className="flex items-start justify-between gap-2">
                    <p className="min-w-0 font-semibold wrap-anywhere text-slate-900">{row.name || '—'}</p>
                    <span className="shrink-0 text-xs text-slate-600">Linha {row.line}</span>
                  </div>
                  <p className="text-slate-700">
                    <span className="font-mono">{row.studentId || '—'}</span> · {row.grade || '—'}
                  </p>
                  <RowStatus row={row} className="mt-1" />
                </li>
              ))}
            </ul>
            <div className="hidden max-h-[45dvh] overflow-auto rounded-xl ring-1 ring-slate-200 md:block">
              <table className="w-full text-left text-sm">
                <caption className="sr-only">Pré-visualização da importação</caption>
                <thead className="sticky top-0 z-10 bg-slate-50 text-xs text-slate-600 uppercase">
                  <tr>
                    {PREVIEW_COLUMNS.map((column) => (
                      <th key={column} scope="col" className="px-3 py-2 font-semibold">
                        {column}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody className="divide-y divide-slate-100">
                  {rows.slice(0, SHOWN_ROWS).map((row) => (
                    <tr key={row.line} className={cn(!row.valid && 'bg-rose-50/60')}>
                      <td className="px-3 py-2 text-slate-600 tabular-nums">{row.line}</td>
                      <td className="px-3 py-2 font-mono text-slate-800">{row.studentId || '—'}</td>
                      <td className="px-3 py-2 text-slate-900">{row.name || '—'}</td>
                      <td className="px-3 py-2 whitespace-nowrap text-slate-700">{row.grade || '—'}</td>
                      <td className="px-3 py-2 text-slate-700">{row.email ? <EmailText email={row.email} /> : '—'}</td>
                      <td className="px-3 py-2 whitespace-nowrap text-slate-700">
                        {row.birthDate && /^\d{4}-\d{2}-\d{2}$/.test(row.birthDate) ? formatDate(row.birthDate) : (row.birthDate ?? '—')}
                      </td>
                      <td className="px-3 py-2">
                        <RowStatus row={row} />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            {rows.length > SHOWN_ROWS && (
              <p className="text-xs text-slate-600">
                Mostrando {SHOWN_ROWS} de {formatNumber(rows.length)} linhas. Todas as linhas válidas serão importadas.
              </p>
            )}
          </>
        )}
      </div>
    </Modal>
  );
}

/** 'Válida', or what is wrong with the row, as the preview's cards and table both show it. */
function RowStatus({ row, className }: { row: { valid: boolean; problems: string[] }; className?: string }) {
  if (row.valid) {
    return (
      <p className={cn('inline-flex items-center gap-1 font-medium text-emerald-700', className)}>
        <CheckCircle2 aria-hidden="true" className="size-4" />
        Válida
      </p>
    );
  }
  return (
    <ul className={cn('flex flex-col gap-0.5 font-medium text-rose-700', className)}>
      {row.problems.map((problem) => (
        <li key={problem} className="flex items-start gap-1">
          <XCircle aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
          {problem}
        </li>
      ))}
    </ul>
  );
}

type Suggestion = ImportPreview['turmaSuggestions'][number];

/**
 * The file's turmas that only resemble one of the school's ("8º B" for "8º ano B"): each waits for the coordinator to
 * confirm it (its rows are problems until then), or to take the confirmation back.
 */
function TurmaSuggestions({
  suggestions,
  busy,
  onConfirm,
  onUndo,
}: {
  suggestions: Suggestion[];
  busy: boolean;
  onConfirm: (choices: ImportTurmaChoice[]) => void;
  onUndo: (choices: ImportTurmaChoice[]) => void;
}) {
  const waiting = suggestions.filter((suggestion) => !suggestion.confirmed);
  const choice = ({ from, to }: Suggestion): ImportTurmaChoice => ({ from, to });
  return (
    <section aria-labelledby="turma-suggestions" className="rounded-2xl bg-amber-50 p-3 ring-1 ring-amber-200">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 id="turma-suggestions" className="text-sm font-semibold text-amber-950">
          Turmas parecidas com as da escola
        </h3>
        {waiting.length > 1 && (
          <Button size="sm" variant="secondary" disabled={busy} onClick={() => onConfirm(waiting.map(choice))}>
            Confirmar todas
          </Button>
        )}
      </div>
      <p className="mt-0.5 text-xs text-amber-900">Confirme cada sugestão para importar as linhas dessa turma.</p>
      <ul className="mt-2 flex flex-col divide-y divide-amber-200/70">
        {suggestions.map((suggestion) => (
          <li key={suggestion.from} className="flex flex-col gap-1.5 py-2 text-sm sm:flex-row sm:items-center sm:gap-3">
            <p className="min-w-0 flex-1 text-slate-900">
              <span className="wrap-anywhere">“{suggestion.from}”</span>
              <ArrowRight aria-hidden="true" className="mx-1.5 inline size-4 align-[-3px] text-amber-700" />
              <span className="sr-only">como </span>
              <span className="font-semibold whitespace-nowrap">{suggestion.to}</span>{' '}
              <span className="text-xs whitespace-nowrap text-slate-600">({countOf(suggestion.rows, 'linha', 'linhas')})</span>
            </p>
            {suggestion.confirmed ? (
              <span className="flex items-center justify-between gap-2 sm:justify-end">
                <span className="inline-flex items-center gap-1 text-xs font-semibold text-emerald-800">
                  <Check aria-hidden="true" className="size-4" />
                  Confirmada
                </span>
                <Button
                  size="sm"
                  variant="ghost"
                  disabled={busy}
                  onClick={() => onUndo([choice(suggestion)])}
                  icon={<Undo2 aria-hidden="true" className="size-4" />}
                  aria-label={`Desfazer: “${suggestion.from}” como ${suggestion.to}`}
                >
                  Desfazer
                </Button>
              </span>
            ) : (
              <Button
                size="sm"
                disabled={busy}
                onClick={() => onConfirm([choice(suggestion)])}
                aria-label={`Confirmar “${suggestion.from}” como ${suggestion.to}`}
              >
                Confirmar
              </Button>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
