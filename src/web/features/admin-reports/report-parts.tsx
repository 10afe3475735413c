import { useState, type ReactNode } from 'react';
import { Award, Download, FileText } from 'lucide-react';
import { Card } from '../../ui/card.tsx';
import { StudentPicker, type PickedStudents } from '../../ui/student-picker.tsx';
import { Skeleton } from '../../ui/skeleton.tsx';
import { formatDate, formatMeritus } from '../../lib/format.ts';
import { cn } from '../../lib/cn.ts';
import { TAG_NAMES } from '../../../shared/constants.ts';
import { urlOf } from '../../../shared/contract/route.ts';
import { routes } from '../../../shared/contract/routes.ts';
import type { ReportFilterValues, ReportTable } from '../../../shared/reports.ts';
import { useActiveTags } from '../../lib/student-queries.ts';
import { compareText } from '../../../shared/text-order.ts';

const LINK =
  'inline-flex min-h-9 items-center gap-1.5 rounded-lg border border-slate-300 bg-white px-3 ' +
  'py-1.5 text-sm font-medium text-slate-800 shadow-sm hover:bg-slate-50';

/** The CSV and XLSX downloads of one table, for the page's filters. */
export function ExportLinks({ table, query, title }: { table: ReportTable; query: ReportFilterValues; title: string }) {
  return (
    <div className="flex shrink-0 gap-2">
      {(['csv', 'xlsx'] as const).map((format) => (
        <a
          key={format}
          href={urlOf(routes.reports.export, { query: { ...query, table, format } })}
          download
          aria-label={`Exportar ${title} (${format.toUpperCase()})`}
          className={LINK}
        >
          <Download aria-hidden="true" className="size-4" />
          {format.toUpperCase()}
        </a>
      ))}
    </div>
  );
}

export type Column<T> = { header: string; cell: (row: T) => ReactNode; numeric?: boolean };

/** The accessible table under each chart: the same numbers, with a caption. */
export function ReportTableView<T>({
  caption,
  columns,
  rows,
  rowKey,
  empty,
  skeletonClassName = 'h-48',
}: {
  caption: string;
  columns: Column<T>[];
  /** Undefined while the report loads: a placeholder of the table's height stands in. */
  rows: readonly T[] | undefined;
  rowKey: (row: T) => string;
  empty: string;
  skeletonClassName?: string;
}) {
  if (!rows) return <Skeleton className={skeletonClassName} />;
  return (
    // Long tables (a day per row) scroll inside their card; the region can be reached and scrolled with the keyboard.
    <div
      role="region"
      aria-label={caption}
      tabIndex={0}
      className={cn(
        'scroll-shadows -mx-4 max-h-[28rem] overflow-auto px-4 focus-visible:ring-2',
        'focus-visible:ring-indigo-500/40 focus-visible:outline-none sm:mx-0 sm:px-0',
      )}
    >
      <table className="w-full min-w-[28rem] border-collapse text-sm">
        <caption className="pb-2 text-left text-xs font-medium text-slate-600">{caption}</caption>
        <thead className="sticky top-0 bg-white">
          <tr className="border-b border-slate-200 text-left text-xs text-slate-600">
            {columns.map((column) => (
              <th key={column.header} scope="col" className={`px-2 py-2 font-semibold ${column.numeric ? 'text-right' : ''}`}>
                {column.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.length === 0 ? (
            <tr>
              <td colSpan={columns.length} className="px-2 py-6 text-center text-slate-600">
                {empty}
              </td>
            </tr>
          ) : (
            rows.map((row) => (
              <tr key={rowKey(row)} className="border-b border-slate-100 last:border-0">
                {columns.map((column, index) =>
                  index === 0 ? (
                    <th key={column.header} scope="row" className="px-2 py-2 text-left font-medium text-slate-900">
                      {column.cell(row)}
                    </th>
                  ) : (
                    <td key={column.header} className={`px-2 py-2 text-slate-800 ${column.numeric ? 'text-right tabular-nums' : ''}`}>
                      {column.cell(row)}
                    </td>
                  ),
                )}
              </tr>
            ))
          )}
        </tbody>
      </table>
    </div>
  );
}

/** A chart, its table and its exports in one card. */
export function ReportSection({
  title,
  description,
  table,
  query,
  chart,
  children,
}: {
  title: string;
  description?: string;
  table: ReportTable | ReportTable[];
  query: ReportFilterValues;
  chart?: ReactNode;
  children: ReactNode;
}) {
  const tables = Array.isArray(table) ? table : [table];
  return (
    <Card
      title={title}
      action={tables.length === 1 ? <ExportLinks table={tables[0]!} query={query} title={title} /> : undefined}
      className="min-w-0"
    >
      {description && <p className="-mt-1 mb-3 text-xs text-slate-600">{description}</p>}
      {chart && <div className="mb-4">{chart}</div>}
      {children}
    </Card>
  );
}

/** Horizontal bars for long category names (reasons, students); hidden from screen readers, the table says the same. */
export function HorizontalBars({ items, color }: { items: { label: string; value: number; text: string }[]; color: string }) {
  const max = Math.max(1, ...items.map((item) => item.value));
  if (items.length === 0) return null;
  return (
    <ul aria-hidden="true" className="space-y-1.5">
      {items.map((item) => (
        <li
          key={item.label}
          className="grid grid-cols-[minmax(0,10rem)_1fr_auto] items-center gap-2 text-xs sm:grid-cols-[minmax(0,14rem)_1fr_auto]"
        >
          <span className="truncate text-slate-700" title={item.label}>
            {item.label}
          </span>
          <span className="h-3 rounded-full bg-slate-100">
            <span
              className="block h-3 rounded-full"
              style={{ width: `${Math.max(2, (item.value / max) * 100)}%`, backgroundColor: color }}
            />
          </span>
          <span className="text-right font-semibold text-slate-800 tabular-nums">{item.text}</span>
        </li>
      ))}
    </ul>
  );
}

/** The statement of one student for the page's period, and certificates of the current weekly tag holders. */
export function DocumentsPanel({ periodQuery, periodText }: { periodQuery: ReportFilterValues; periodText: string }) {
  const tags = useActiveTags();
  const [selected, setSelected] = useState<PickedStudents>(new Map());
  const chosen = [...selected.values()][0];
  const holders = (tags.data ?? []).slice().sort((a, b) => a.kind.localeCompare(b.kind) || compareText(a.student.name, b.student.name));

  return (
    <div className="grid grid-cols-1 gap-4 xl:grid-cols-2">
      <Card title="Extrato do aluno (PDF)">
        <p className="-mt-1 mb-3 text-xs text-slate-600">
          Saldo no início e no fim e todas as operações do aluno no período escolhido ({periodText}).
        </p>
        <StudentPicker
          selected={selected}
          onChange={setSelected}
          mode="single"
          label="Aluno do extrato"
          balanceOf={(student) => formatMeritus(student.meritus)}
          limit={6}
          listClassName="max-h-64 overflow-y-auto"
        />
        <div className="mt-3 flex flex-wrap items-center gap-3">
          {chosen ? (
            <a href={urlOf(routes.reports.statement, { query: { ...periodQuery, student: chosen.id } })} download className={LINK}>
              <FileText aria-hidden="true" className="size-4" />
              Baixar extrato de {chosen.name}
            </a>
          ) : (
            <p className="text-sm text-slate-600">Busque e escolha um aluno pelo nome ou pela matrícula.</p>
          )}
        </div>
      </Card>
      <Card title="Certificados da semana (PDF, A4)">
        <p className="-mt-1 mb-3 text-xs text-slate-600">Para quem tem uma tag da semana ativa, com o nome da escola.</p>
        {tags.isPending ? (
          <Skeleton className="h-24" />
        ) : holders.length === 0 ? (
          <p className="rounded-xl border border-dashed border-slate-300 px-4 py-6 text-center text-sm text-slate-600">
            Nenhuma tag da semana ativa no momento
          </p>
        ) : (
          <ul className="divide-y divide-slate-100">
            {holders.map((tag) => (
              <li key={tag.id} className="flex flex-wrap items-center justify-between gap-2 py-2">
                <span className="min-w-0">
                  <span className="block truncate font-medium text-slate-900">{tag.student.name}</span>
                  <span className="block text-xs text-slate-600">
                    {TAG_NAMES[tag.kind]} · {tag.student.grade} · até {formatDate(tag.expiresAt)}
                  </span>
                </span>
                <a
                  href={urlOf(routes.reports.certificate, { query: { tag: tag.id } })}
                  download
                  aria-label={`Certificado ${TAG_NAMES[tag.kind]} de ${tag.student.name} (PDF)`}
                  className={LINK}
                >
                  <Award aria-hidden="true" className="size-4" />
                  Certificado
                </a>
              </li>
            ))}
          </ul>
        )}
      </Card>
    </div>
  );
}
