import { foldText } from './student-match.ts';

/**
 * How a turma written in a file relates to the school's turmas: the same name (any case), a
 * name that looks like one of them ("8º B", "8o B", "8 ano b" for "8º ano B"), which the
 * coordinator confirms before it is used, or none.
 */
export type TurmaMatch = { kind: 'exact'; turma: string } | { kind: 'suggested'; turma: string } | { kind: 'none' };

/** Words that only decorate a turma's name: "8º ano B", "3ª série do EF", "1º EM - Turma A". */
const NOISE = new Set(['ano', 'serie', 'turma', 'do', 'da', 'de', 'ef', 'fundamental', 'ensino']);
/** Words naming the Ensino Médio, kept as one level mark so "1º ano A" and "1º EM A" stay apart. */
const HIGH_SCHOOL = new Set(['em', 'medio']);

/**
 * What identifies a turma's name, without its decoration: "8º ano B", "8° B", " 8o  b ",
 * "8 ANO B" → "8 b"; "1º EM - Turma A", "1a serie EM A" → "1 em a". An "o"/"a" written right
 * after the number is its ordinal ("2o ano C") unless it is the name's last word ("8a" is 8 A).
 */
function keyOf(name: string): string[] {
  const words = foldText(name)
    .replace(/[º°ª]/g, ' ')
    .replace(/(\d)(?=\p{L})|(\p{L})(?=\d)/gu, '$1$2 ')
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
  const key: string[] = [];
  words.forEach((word, index) => {
    const ordinal = (word === 'o' || word === 'a') && /\d/.test(words[index - 1] ?? '') && index < words.length - 1;
    if (ordinal || NOISE.has(word)) return;
    key.push(HIGH_SCHOOL.has(word) ? 'em' : word);
  });
  // "Ensino Médio" is one level, not two.
  return key.filter((word, index) => !(word === 'em' && key[index - 1] === 'em'));
}

/** The one turma whose key is `key`, or null when none or several are. */
function onlyOne(turmas: readonly string[], keys: readonly string[], key: string): string | null {
  const found = turmas.filter((_, index) => keys[index] === key);
  return found.length === 1 ? found[0]! : null;
}

/**
 * The school's turma a file's text names. The same name in any case (as a student's turma is
 * checked everywhere) is exact; otherwise the one turma with the same number, level and letter
 * is suggested, or, when the text names no level ("1A"), the one turma with the same number
 * and letter at any level. Several candidates suggest none.
 */
export function matchTurma(raw: string, turmas: readonly string[]): TurmaMatch {
  const text = raw.trim().toLowerCase();
  if (!text) return { kind: 'none' };
  const exact = turmas.find((turma) => turma.trim().toLowerCase() === text);
  if (exact) return { kind: 'exact', turma: exact };
  const key = keyOf(raw);
  if (key.length < 2) return { kind: 'none' };
  const keys = turmas.map((turma) => keyOf(turma).join(' '));
  const same = onlyOne(turmas, keys, key.join(' '));
  if (same) return { kind: 'suggested', turma: same };
  if (!key.includes('em')) {
    const anyLevel = onlyOne(
      turmas,
      keys.map((turmaKey) => turmaKey.replace(/ em\b/, '')),
      key.join(' '),
    );
    if (anyLevel) return { kind: 'suggested', turma: anyLevel };
  }
  return { kind: 'none' };
}
