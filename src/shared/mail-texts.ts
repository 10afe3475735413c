/*
 * Email (issue 37, decision 038): the weekly summary to each guardian, the letter of a code sent by email, and the
 * guardian's one-click opt-out. The texts the screens and the messages share, without zod.
 */

/** Where the summary's button leads: the family area (src/shared/areas.ts). */
export const FAMILY_AREA_PATH = '/familia';

export const MAIL_TEXTS = {
  disabled: 'O envio de e-mails não está configurado nesta escola.',
  letterQueued: (name: string, email: string) =>
    `Carta para responsáveis de ${name} na fila de envio para ${email}; os códigos anteriores deixaram de valer`,
  letterSubject: (name: string) => `Carta para responsáveis de ${name}`,
  /** The letter's first step, by email: the sign-up address is a link (the printed letter's QR code is not there). */
  letterFirstStep: (address: string) => `Abra ${address} no celular ou no computador.`,
  letterButton: 'Criar a conta de responsável',
  summarySubject: (name: string) => `Resumo da semana de ${name}`,
  unsubscribed: 'Pronto: você não vai mais receber o resumo semanal por email.',
  unsubscribedHint: 'Para voltar a receber, ligue o resumo semanal na área da família.',
  summaryOn: 'Resumo semanal ligado: você recebe um email toda segunda-feira.',
  summaryOff: 'Resumo semanal desligado.',
} as const;

export const WEEKLY_SUMMARY_TEXTS = {
  week: (from: string, to: string) => `de ${from} a ${to}`,
  intro: (name: string, week: string) => `Veja como foi a semana de ${name} (${week}) no Méritus da escola.`,
  balances: 'Saldos hoje',
  ranking: 'Posição no ranking',
  position: (position: number, of: number) => `${position}º de ${of}`,
  earned: 'Ganhou na semana',
  nothingEarned: 'Nenhum Méritus ou Esteleca recebido da escola nesta semana.',
  lost: 'Perdeu na semana',
  nothingLost: 'Nenhuma remoção ou penalidade nesta semana.',
  open: 'Abrir a área da família',
  why: 'Você recebe este resumo porque acompanha este estudante no Méritus.',
  unsubscribe: 'Não quero mais receber o resumo semanal',
} as const;
