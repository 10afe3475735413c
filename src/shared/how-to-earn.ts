import { ESTELECAS_ACHIEVEMENTS } from './constants.ts';
import { formatEstelecas, formatMeritus, formatNumber } from './format.ts';

/**
 * The student page 'Como ganhar Méritus e Estelecas': the school's own text (Configurações), or a default written from
 * its settings, so it states the school's real limits and goals and invents no rule. Free of zod: the page imports it.
 */

export const HOW_TO_EARN_TITLE = 'Como ganhar Méritus e Estelecas';
export const HOW_TO_EARN_MAX_LENGTH = 4000;

/** The settings the default text is written from (a subset of SchoolRules). */
export type HowToEarnRules = {
  meritusGoal: number;
  achievementThresholds: { collector: number; master: number };
  defaultTagDays: number;
  maxOperationAmount: number;
  transferDailyCap: number | null;
  transferMinIntervalSeconds: number | null;
};

function intervalText(seconds: number): string {
  if (seconds % 3600 === 0) return `${formatNumber(seconds / 3600)} ${seconds === 3600 ? 'hora' : 'horas'}`;
  if (seconds % 60 === 0) return `${formatNumber(seconds / 60)} ${seconds === 60 ? 'minuto' : 'minutos'}`;
  return `${formatNumber(seconds)} ${seconds === 1 ? 'segundo' : 'segundos'}`;
}

export function defaultHowToEarn(rules: HowToEarnRules): string {
  const [first, collector, master] = ESTELECAS_ACHIEVEMENTS;
  const transferLimits = [
    `até ${formatNumber(rules.maxOperationAmount)} por transferência`,
    ...(rules.transferDailyCap === null ? [] : [`até ${formatMeritus(rules.transferDailyCap)} por dia`]),
    ...(rules.transferMinIntervalSeconds === null
      ? []
      : [`com pelo menos ${intervalText(rules.transferMinIntervalSeconds)} entre uma transferência e outra`]),
  ];
  return [
    'Méritus (M$) e Estelecas são os pontos da escola. Quem dá e retira pontos são os professores e a coordenação, ' +
      'sempre com um motivo, que aparece no seu histórico.',
    [
      `- Méritus: a sua meta é ${formatMeritus(rules.meritusGoal)}. O seu saldo e o seu progresso aparecem no Dashboard.`,
      `- Estelecas: são os pontos de excelência. As conquistas são ${first.name} (${formatEstelecas(first.threshold)}), ` +
        `${collector.name} (${formatEstelecas(rules.achievementThresholds.collector)}) ` +
        `e ${master.name} (${formatEstelecas(rules.achievementThresholds.master)}).`,
      `- Tags da semana: os professores destacam alunos com tags, que duram ${formatNumber(rules.defaultTagDays)} ` +
        `${rules.defaultTagDays === 1 ? 'dia' : 'dias'} se o professor não escolher outro prazo.`,
    ].join('\n'),
    `Você pode transferir Méritus e Estelecas para colegas: ${transferLimits.join(', ')}. ` +
      'Antes de enviar, confira o colega e o valor; depois, o comprovante fica no seu histórico.',
    'Na Loja, você usa seus pontos em itens e nas metas da turma.',
    'Dúvidas? Fale com seu professor ou com a coordenação.',
  ].join('\n\n');
}

/** One block of the text: a paragraph (its lines kept) or a list (its lines that start with '- '). */
export type TextBlock = { kind: 'paragraph'; lines: string[] } | { kind: 'list'; items: string[] };

/**
 * The text as blocks, for a screen to render as elements (never as HTML): blank lines part paragraphs; a paragraph whose
 * every line starts with '- ' is a list.
 */
export function textBlocks(text: string): TextBlock[] {
  return text
    .split(/\n\s*\n/)
    .map((block) =>
      block
        .split('\n')
        .map((line) => line.trim())
        .filter(Boolean),
    )
    .filter((lines) => lines.length > 0)
    .map((lines) =>
      lines.every((line) => line.startsWith('- '))
        ? { kind: 'list', items: lines.map((line) => line.slice(2).trim()) }
        : { kind: 'paragraph', lines },
    );
}
