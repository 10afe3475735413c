import { FIRST_ANSWERS_ID } from '../../shared/constants.ts';

let answers: Map<string, unknown> | undefined;

/**
 * The answer the page came with for a GET of this URL (a signed-in page's first reads, written by the server:
 * first-reads.ts), taken once: a later read of the URL asks the server. Undefined when the page holds none.
 */
export function takeFirstAnswer(url: string): { answer: unknown } | undefined {
  if (!answers) {
    const element = typeof document === 'undefined' ? null : document.getElementById(FIRST_ANSWERS_ID);
    answers = new Map(Object.entries(element?.textContent ? (JSON.parse(element.textContent) as Record<string, unknown>) : {}));
  }
  if (!answers.has(url)) return undefined;
  const answer = answers.get(url);
  answers.delete(url);
  return { answer };
}
