import { countOf, formatEstelecas, formatMeritus } from './format.ts';

/*
 * The Hall da Fama's words (issue 38, decision 035), without zod (hall-of-fame.ts holds the schemas), so the screen and
 * the certificate share them.
 */

/**
 * What a closed year honours: the most Méritus and the most Estelecas earned in the year (awards, less what was reversed
 * of them), the most tags received, the top of each turma (by Méritus earned) and the turma that reached most Loja goals.
 */
export const HONOUR_CATEGORIES = ['meritus', 'estelecas', 'tags', 'turma', 'goals'] as const;
export type HonourCategory = (typeof HONOUR_CATEGORIES)[number];

/** How many places the school-wide lists keep (ties at the last place all stay). */
export const HALL_OF_FAME_TOP = 10;

export const HONOUR_CATEGORY_TITLES = {
  meritus: 'Mais Méritus ganhos',
  estelecas: 'Mais Estelecas ganhas',
  tags: 'Mais tags recebidas',
  turma: 'Destaque de cada turma',
  goals: 'Turma que mais atingiu metas',
} as const satisfies Record<HonourCategory, string>;

/** The figure an honour was earned by: '1.240 M$', '35 Estelecas', '4 tags', '3 metas'. */
export function honourFigure(category: HonourCategory, amount: number): string {
  if (category === 'meritus' || category === 'turma') return formatMeritus(amount);
  if (category === 'estelecas') return formatEstelecas(amount);
  if (category === 'tags') return countOf(amount, 'tag', 'tags');
  return countOf(amount, 'meta atingida', 'metas atingidas');
}

/** The honour as the certificate writes it: '1º lugar em Méritus no Ano letivo 2026'. */
export function honourTitle(category: HonourCategory, place: number, yearName: string, turmaName: string): string {
  const what = {
    meritus: 'em Méritus',
    estelecas: 'em Estelecas',
    tags: 'em tags recebidas',
    turma: `em Méritus da turma ${turmaName}`,
    goals: 'em metas da Loja',
  }[category];
  return `${place}º lugar ${what} no ${yearName}`;
}

export const HALL_OF_FAME_TEXTS = {
  title: 'Hall da Fama',
  subtitle: 'Os destaques de cada ano letivo encerrado.',
  empty: 'O Hall da Fama começa quando o primeiro ano letivo for encerrado.',
  emptyHint: 'Na virada do ano, os destaques do ano que termina ficam guardados aqui para sempre.',
  yearLabel: 'Ano letivo',
  closedOn: (date: string) => `Encerrado em ${date}`,
  noneInCategory: 'Ninguém neste ano.',
  certificate: 'Certificado',
  certificateOf: (name: string, title: string) => `Baixar certificado de ${name}: ${title}`,
  you: 'Você',
  erased: 'Dados pessoais excluídos',
  /** A hidden student (decision 029) keeps their place, without a name. */
  hiddenHolder: 'Estudante',
  certificatePeriod: (from: string, to: string, figure: string) => `de ${from} a ${to}, com ${figure}.`,
  certificateFileName: (title: string, name: string) => `certificado-hall-da-fama-${title}-${name}.pdf`,
} as const;
