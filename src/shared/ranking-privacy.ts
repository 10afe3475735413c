/*
 * How other students are shown to a student (issue 37, decision 029): the school's mode for names, and a student's
 * choice not to appear. Zod-free, so the screens that show names import it without the schemas.
 */

/**
 * 'Nome completo' (as before), 'Primeiro nome e inicial', 'Anônimo' ('Estudante 12') or 'Só vizinhos' (the podium and
 * the student's own position with NEIGHBOURS_AROUND above and below, names in full).
 */
export const RANKING_NAME_MODES = ['full', 'firstNameInitial', 'anonymous', 'neighbours'] as const;
export type RankingNameMode = (typeof RANKING_NAME_MODES)[number];

export const RANKING_NAME_MODE_LABELS: Record<RankingNameMode, string> = {
  full: 'Nome completo',
  firstNameInitial: 'Primeiro nome e inicial',
  anonymous: 'Anônimo',
  neighbours: 'Só vizinhos',
};

export const RANKING_NAME_MODE_HINTS: Record<RankingNameMode, string> = {
  full: 'Os estudantes veem o nome e a foto de todos no ranking e nas tags.',
  firstNameInitial: 'Os estudantes veem “Ana S.”, sem foto nem matrícula dos colegas.',
  anonymous: 'Os estudantes veem “Estudante 12” no lugar dos colegas; cada um vê o próprio nome.',
  neighbours: 'Os estudantes veem o pódio e, da própria posição, três acima e três abaixo.',
};

/** Rows above and below the student's own in 'Só vizinhos'. */
export const NEIGHBOURS_AROUND = 3;

/** Words of a name that are not a surname of their own ('Maria da Silva' is 'Maria S.'). */
const PARTICLES = new Set(['da', 'das', 'de', 'do', 'dos', 'e', 'di', 'du', 'del', 'van', 'von']);

/** 'Ana Beatriz Souza' → 'Ana S.'; a single name stays whole. */
export function firstNameAndInitial(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  const first = words[0] ?? '';
  const surname = [...words.slice(1)].reverse().find((word) => !PARTICLES.has(word.toLocaleLowerCase('pt-BR')));
  return surname ? `${first} ${surname.charAt(0).toLocaleUpperCase('pt-BR')}.` : first;
}

export const RANKING_PRIVACY_TEXTS = {
  /** A row of the ranking in 'Anônimo': its number in the list the student sees, not a name of its own. */
  anonymousRow: (number: number) => `Estudante ${number}`,
  /** Another student holding a tag, in 'Anônimo'. */
  anonymousHolder: 'Estudante',
  /** A recipient found by their exact matrícula in 'Anônimo'. */
  recipientByMatricula: (matricula: string) => `Estudante da matrícula ${matricula}`,
  hideLabel: 'Não aparecer no ranking',
  hideHint: 'Seus colegas não verão você no ranking nem nas tags. Você continua vendo a sua posição.',
  hideNotAllowed: 'A escola não permite que estudantes deixem de aparecer no ranking.',
  hidden: 'Você não aparece no ranking para os colegas',
  shown: 'Você aparece no ranking para os colegas',
  anonymousSearchHint: 'Digite a matrícula exata do colega para encontrá-lo.',
  hiddenBadge: 'Oculto para colegas',
} as const;
