import { z } from 'zod';
import { createStaffInput } from './staff.ts';
import { rowId, textInput } from './validation.ts';

/*
 * Email (issue 37, decision 038): the weekly summary to each guardian, the letter of a code sent by email, and the
 * guardian's one-click opt-out. The texts the screens and the messages share live here.
 */

/** The public page the summary's signed link opens (the web's router has the same path). */
export const MAIL_UNSUBSCRIBE_PATH = '/emails/resumo-semanal';

/** Where the summary's button leads: the family area (src/shared/areas.ts). */
export const FAMILY_AREA_PATH = '/familia';

/** GET /api/admin/mail and the family area: whether this server sends email at all (SMTP_URL). */
export const mailStatus = z.object({ enabled: z.boolean() });
export type MailStatus = z.infer<typeof mailStatus>;

/** GET|PUT /api/family/mail: the guardian's weekly summary, on or off (and whether email is on at all). */
export const familyMailPreferences = z.object({ enabled: z.boolean(), weeklySummary: z.boolean() });
export type FamilyMailPreferences = z.infer<typeof familyMailPreferences>;
export const familyMailInput = z.object({ weeklySummary: z.boolean() });

/** POST /api/mail/unsubscribe: the guardian and the signature the email's link carries. */
export const unsubscribeInput = z.object({
  guardian: rowId({ error: 'mail_link_invalid' }),
  signature: textInput({ error: 'mail_link_invalid', max: 100 }).min(1, { error: 'mail_link_invalid' }),
});
export type UnsubscribeInput = z.infer<typeof unsubscribeInput>;

/** POST /api/admin/students/:id/guardian-letter-email: the address the letter goes to (the staff's email rules). */
export const guardianLetterEmailInput = z.object({ email: createStaffInput.shape.email });
export type GuardianLetterEmailInput = z.infer<typeof guardianLetterEmailInput>;

export const MAIL_TEXTS = {
  disabled: 'O envio de e-mails não está configurado nesta escola.',
  letterQueued: (name: string, email: string) =>
    `Carta para responsáveis de ${name} enviada para ${email}; os códigos anteriores deixaram de valer`,
  letterSubject: (name: string) => `Carta para responsáveis de ${name}`,
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
