import { ERROR_MESSAGES } from './errors.ts';
import { FIGURE_LABELS, formatDayRange, isReportPreset, type ReportPeriod, type ResolvedPeriod } from './reports.ts';
import { STORE_TEXTS } from './store.ts';

/**
 * The pt-BR words the reports write besides the screen's: the refusal of an unknown turma, the
 * exports' column headings and file names, and the texts of the two PDF documents.
 */
export const REPORT_TEXTS = {
  unknownTurma: (name: string) => `${ERROR_MESSAGES.report_unknown_turma}: ${name}`,
  /** An export's file name: the table's, its turmas (fileNamePart), its period, the format's extension. */
  exportFileName: (table: string, turmas: string, from: string, to: string, extension: string) =>
    `relatorio-${table}-${turmas}-${from}-a-${to}.${extension}`,
  /** The workbook with every table. */
  workbookFileName: (turmas: string, from: string, to: string) => `relatorio-${turmas}-${from}-a-${to}.xlsx`,
  /** The file name's part for the turmas of a report: none chosen means every one (of the school, or of a teacher). */
  allTurmasFilePart: 'todas-as-turmas',
  manyTurmasFilePart: (count: number) => `${count}-turmas`,
  /** The line under an export's title, inside the file. */
  turmasLine: (turmas: readonly string[]) =>
    turmas.length === 0 ? 'Turmas: todas' : turmas.length === 1 ? `Turma: ${turmas[0]}` : `Turmas: ${turmas.join(', ')}`,
} as const;

/** How a document names its period: the screen's choice and its days ('Bimestre: 01/10/2026 a 28/11/2026'). */
const PERIOD_NAMES: Record<ReportPeriod, string> = {
  today: 'Dia',
  '7d': 'Últimos 7 dias',
  '30d': 'Últimos 30 dias',
  month: 'Mês',
  bimester: 'Bimestre',
  year: 'Ano letivo',
  custom: 'Período',
};
export const periodLine = (period: Pick<ResolvedPeriod, 'period' | 'label' | 'from' | 'to'>) =>
  `${period.label ?? (isReportPreset(period.period) ? PERIOD_NAMES[period.period] : PERIOD_NAMES.custom)}: ${formatDayRange(period.from, period.to)}`;

/** Column headings of the exports (CSV and XLSX), with a `(%)` or `(M$)` where the unit is not said otherwise. */
export const EXPORT_HEADINGS = {
  figure: 'Indicador',
  inPeriod: (range: string) => `No período (${range})`,
  previousPeriod: (range: string) => `Período anterior (${range})`,
  change: 'Variação',
  definition: 'Definição',
  inPercent: (label: string) => `${label} (%)`,
  day: 'Dia',
  weekStart: 'Semana (início)',
  meritusAwarded: FIGURE_LABELS.meritusAwarded,
  meritusRemoved: FIGURE_LABELS.meritusRemoved,
  meritusTransferred: FIGURE_LABELS.meritusTransferred,
  meritusSpent: FIGURE_LABELS.meritusSpent,
  estelecasSpent: FIGURE_LABELS.estelecasSpent,
  turma: 'Turma',
  students: 'Alunos',
  balanceAtEnd: 'Saldo no fim do período',
  averageBalance: 'Média por aluno',
  participants: 'Alunos participantes',
  participation: 'Participação (%)',
  balanceRange: 'Faixa de saldo',
  minimum: 'Mínimo (M$)',
  maximum: 'Máximo (M$)',
  position: 'Posição',
  studentId: 'Matrícula',
  name: 'Nome',
  startBalance: 'Saldo no início (M$)',
  endBalance: 'Saldo no fim (M$)',
  balanceChange: 'Variação (M$)',
  reason: 'Motivo',
  savedPreset: 'Motivo rápido salvo',
  operations: 'Operações',
  meritus: 'Méritus',
  estelecas: 'Estelecas',
  item: 'Item',
  category: 'Categoria',
  currency: 'Moeda',
  units: 'Unidades',
  spent: 'Gasto (menos devoluções)',
  refunded: 'Devolvido',
  stockLeft: 'Estoque restante',
  pendingOrders: 'Pedidos pendentes',
  unlimited: 'Ilimitado',
  soldOut: STORE_TEXTS.soldOut,
  yes: 'Sim',
  no: 'Não',
  earned: 'Ganhos (M$)',
  removed: 'Removidos (M$)',
  received: 'Recebidos em transferências (M$)',
  sent: 'Transferidos (M$)',
  spentInStore: 'Gastos na Loja (M$)',
  estelecasAtEnd: 'Estelecas no fim',
  tagsInPeriod: 'Tags no período',
  status: 'Situação',
  enrolled: 'Matriculado',
  left: 'Saiu da escola',
} as const;

/** A student's statement (extrato) in PDF. */
export const STATEMENT_TEXTS = {
  documentTitle: (name: string) => `Extrato de ${name}`,
  heading: 'Extrato de Méritus e Estelecas',
  student: (name: string) => `Aluno: ${name}`,
  studentIdAndTurma: (studentId: string, turma: string) => `Matrícula: ${studentId} · Turma: ${turma}`,
  period: (range: string) => `Período: ${range}`,
  openingBalance: (meritus: string, estelecas: string) => `Saldo no início do período: ${meritus} · ${estelecas}`,
  closingBalance: (meritus: string, estelecas: string) => `Saldo no fim do período: ${meritus} · ${estelecas}`,
  columns: { date: 'Data', currency: 'Moeda', operation: 'Operação', description: 'Descrição', amount: 'Valor' },
  noOperations: 'Nenhuma operação no período.',
  /** After a transfer's description: who sent it, or to whom it went. */
  party: (incoming: boolean, name: string) => ` (${incoming ? 'de' : 'para'} ${name})`,
  issued: (at: string, admin: string) => `Emitido em ${at} por ${admin}. Valores somados do registro de operações.`,
  fileName: (studentId: string, from: string, to: string) => `extrato-${studentId}-${from}-a-${to}.pdf`,
} as const;

/** A weekly tag's certificate in PDF; the sentence runs 'Certificamos que Ana Souza, da turma …, recebeu o título de …'. */
export const CERTIFICATE_TEXTS = {
  documentTitle: (title: string, name: string) => `${title}: ${name}`,
  heading: 'CERTIFICADO',
  opening: 'Certificamos que',
  /** The comma closes the name's clause. */
  name: (name: string) => `${name},`,
  turma: (turma: string, studentId: string) => `da turma ${turma} (matrícula ${studentId}), recebeu o título de`,
  period: (from: string, to: string) => `pelo período de ${from} a ${to}.`,
  signature: 'Coordenação pedagógica',
  issued: (date: string) => `Emitido em ${date}`,
  /** `title` and `name` already as file-name slugs. */
  fileName: (title: string, name: string) => `certificado-${title}-${name}.pdf`,
} as const;

/** A turma's report in PDF (A4, landscape): its figures for the period and a row per student. */
export const TURMA_REPORT_TEXTS = {
  documentTitle: (turma: string) => `Relatório da turma ${turma}`,
  heading: (turma: string) => `Relatório da turma ${turma}`,
  figuresTitle: 'Indicadores da turma no período',
  studentsTitle: 'Alunos',
  enrolledStudents: 'Alunos matriculados',
  balanceAtEnd: 'Saldo da turma no fim',
  averageBalance: 'Média por aluno',
  columns: {
    studentId: 'Matrícula',
    name: 'Aluno',
    start: 'Saldo no início',
    awarded: 'Ganhos',
    removed: 'Removidos',
    received: 'Recebidos',
    sent: 'Transferidos',
    spent: 'Gastos na Loja',
    end: 'Saldo no fim',
    estelecas: 'Estelecas',
    tags: 'Tags',
  },
  legend:
    'Valores em Méritus (M$) somados do registro de operações. Ganhos: adições e recompensas; Removidos: remoções e penalidades; ' +
    'Recebidos e Transferidos: transferências recebidas e enviadas; Estelecas: saldo no fim do período; Tags: tags da semana ' +
    'que valeram no período. Saldo no fim = início + ganhos − removidos + recebidos − transferidos − gastos na Loja.',
  total: 'Total',
  /** Beside the name of a student no longer enrolled at the period's end. */
  left: 'saiu da escola',
  noStudents: 'Nenhum aluno nesta turma no período.',
  page: (page: number, pages: number) => `Página ${page} de ${pages}`,
  issued: (at: string, admin: string) => `Emitido em ${at} por ${admin}`,
  fileName: (turma: string, from: string, to: string) => `relatorio-turma-${turma}-${from}-a-${to}.pdf`,
} as const;

/** Every statement of a turma in one PDF. */
export const TURMA_STATEMENTS_TEXTS = {
  documentTitle: (turma: string) => `Extratos da turma ${turma}`,
  fileName: (turma: string, from: string, to: string) => `extratos-${turma}-${from}-a-${to}.pdf`,
} as const;

/** The certificates of the period's top students by Méritus earned; the sentence runs as the weekly tag's. */
export const TOP_CERTIFICATE_TEXTS = {
  documentTitle: (turma: string | null) => `Certificados dos destaques: ${turma ?? 'escola'}`,
  title: (place: number, turma: string | null) => `${place}º lugar em Méritus ${turma === null ? 'da escola' : 'da turma'}`,
  /** `from` and `to` as dd/mm/aaaa. */
  period: ({ period, label }: Pick<ResolvedPeriod, 'period' | 'label'>, from: string, to: string, meritus: string) => {
    if (label !== null) return `no ${label}, de ${from} a ${to}, com ${meritus} ganhos.`;
    const span = period === 'bimester' ? 'no bimestre' : period === 'year' ? 'no ano letivo' : 'no período';
    return `${from === to ? `no dia ${from}` : `${span} de ${from} a ${to}`}, com ${meritus} ganhos.`;
  },
  fileName: (where: string, from: string, to: string) => `certificados-destaques-${where}-${from}-a-${to}.pdf`,
  schoolFilePart: 'escola',
} as const;
