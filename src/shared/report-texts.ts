import { ERROR_MESSAGES } from './errors.ts';
import { FIGURE_LABELS } from './reports.ts';
import { STORE_TEXTS } from './store.ts';

/**
 * The pt-BR words the reports write besides the screen's: the refusal of an unknown turma, the
 * exports' column headings and file names, and the texts of the two PDF documents.
 */
export const REPORT_TEXTS = {
  unknownTurma: (name: string) => `${ERROR_MESSAGES.report_unknown_turma}: ${name}`,
  /** An export's file name: the table's, its period, the format's extension. */
  exportFileName: (table: string, from: string, to: string, extension: string) => `relatorio-${table}-${from}-a-${to}.${extension}`,
} as const;

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
