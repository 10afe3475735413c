import { z } from 'zod';
import { requiredText, textInput } from './validation.ts';

/*
 * The LGPD part of issue 37 (decision 030): a student's personal data exported and erased, the image consent, who saw
 * what, the retention of inactive students and the public privacy page. Texts here are what the screens say.
 */

/** The name an erased student keeps on the ledger and everywhere they still appear. */
export function erasedStudentName(number: number): string {
  return `Aluno removido #${number}`;
}

/** The confirmation an erasure asks for: the student's name as shown, typed again (case, spacing and accents aside). */
export function confirmationMatches(typed: string, name: string): boolean {
  const fold = (text: string) => text.normalize('NFD').replace(/\p{M}/gu, '').replace(/\s+/g, ' ').trim().toLocaleLowerCase('pt-BR');
  return fold(typed) !== '' && fold(typed) === fold(name);
}

export const ERASE_REASON_MAX_LENGTH = 300;

/** POST /api/admin/students/:id/erase */
export const eraseStudentInput = z.object({
  confirm: textInput({ error: 'erase_confirmation_mismatch', max: 200, maxError: 'erase_confirmation_mismatch' }),
  reason: requiredText('erase_reason_required', ERASE_REASON_MAX_LENGTH, { maxError: 'erase_reason_too_long' }),
});
export type EraseStudentInput = z.input<typeof eraseStudentInput>;

export const eraseStudentResult = z.object({ message: z.string(), name: z.string() });
export type EraseStudentResult = z.infer<typeof eraseStudentResult>;

/** PUT /api/admin/students/:id/image-consent */
export const imageConsentInput = z.object({ consent: z.boolean({ error: 'validation' }) });
export type ImageConsentInput = z.infer<typeof imageConsentInput>;

/** GET /api/admin/students/:id/personal-data: what the coordination opens (and the access log records). */
export const studentPersonalData = z.object({
  id: z.uuid(),
  studentId: z.string(),
  name: z.string(),
  email: z.string().nullable(),
  birthDate: z.string().nullable(),
  imageConsent: z.boolean(),
  removed: z.boolean(),
  erased: z.boolean(),
});
export type StudentPersonalData = z.infer<typeof studentPersonalData>;

/** What one entry of a student's access log says was seen. */
export const ACCESS_KINDS = ['personal_data', 'export'] as const;
export type AccessKind = (typeof ACCESS_KINDS)[number];
export const ACCESS_KIND_LABELS: Record<AccessKind, string> = {
  personal_data: 'Abriu os dados pessoais (email, data de nascimento)',
  export: 'Exportou todos os dados pessoais',
};

/** GET /api/admin/students/:id/access-log */
export const accessLogEntry = z.object({
  at: z.string(),
  kind: z.enum(ACCESS_KINDS),
  who: z.string(),
});
export const accessLog = z.object({ items: z.array(accessLogEntry) });
export type AccessLog = z.infer<typeof accessLog>;
/** The most entries the log answers (the newest): a year of daily views. */
export const ACCESS_LOG_LIMIT = 500;

// ---------------------------------------------------------------- the school's privacy settings

export const PRIVACY_CONTACT_MAX_LENGTH = 500;
export const RETENTION_MONTHS_MIN = 6;
export const RETENTION_MONTHS_MAX = 120;

const retentionMonths = z
  .number({ error: 'invalid_retention_months' })
  .int({ error: 'invalid_retention_months' })
  .min(RETENTION_MONTHS_MIN, { error: 'invalid_retention_months' })
  .max(RETENTION_MONTHS_MAX, { error: 'invalid_retention_months' })
  .nullable();

/** The stored block (school_settings.privacy): what the coordination chose, and the retention sweep's bookkeeping. */
export const schoolPrivacy = z.object({
  /** Who answers for the school's data (name, email, phone), as the privacy page shows it. */
  contact: z.string(),
  /** 'Anonimizar alunos inativos após {n} meses'; null: never. */
  retentionMonths: retentionMonths,
  /** When the sweep may first act on the current choice: a day after it was saved, so the preview stands for a day. */
  retentionStartsAt: z.string().nullable(),
  /** The sweep's last run, and how many it anonymised. */
  lastSweepAt: z.string().nullable(),
  lastSweepErased: z.number().int().nullable(),
});
export type SchoolPrivacy = z.infer<typeof schoolPrivacy>;

export const DEFAULT_PRIVACY: SchoolPrivacy = {
  contact: '',
  retentionMonths: null,
  retentionStartsAt: null,
  lastSweepAt: null,
  lastSweepErased: null,
};

/** PUT /api/admin/settings/privacy */
export const schoolPrivacyInput = z.object({
  contact: textInput({ error: 'validation', max: PRIVACY_CONTACT_MAX_LENGTH, maxError: 'privacy_contact_too_long' }),
  retentionMonths,
});
export type SchoolPrivacyInput = z.input<typeof schoolPrivacyInput>;

/** GET /api/admin/privacy/retention-preview?months= */
export const retentionPreviewQuery = z.object({
  months: z.coerce
    .number({ error: 'invalid_retention_months' })
    .int({ error: 'invalid_retention_months' })
    .min(RETENTION_MONTHS_MIN, { error: 'invalid_retention_months' })
    .max(RETENTION_MONTHS_MAX, { error: 'invalid_retention_months' }),
});
export const RETENTION_PREVIEW_LIMIT = 200;
export const retentionPreview = z.object({
  total: z.number().int(),
  /** The first RETENTION_PREVIEW_LIMIT, by name. */
  students: z.array(z.object({ id: z.uuid(), studentId: z.string(), name: z.string(), grade: z.string(), lastActivity: z.string() })),
});
export type RetentionPreview = z.infer<typeof retentionPreview>;

/** GET /api/privacy: the public privacy page (no sign-in): the school's name and what it wrote, nothing else. */
export const privacyPage = z.object({ schoolName: z.string(), contact: z.string() });
export type PrivacyPage = z.infer<typeof privacyPage>;

export const LGPD_TEXTS = {
  erased: (name: string) => `Dados pessoais excluídos. O estudante agora aparece como ${name}.`,
  consentGiven: (name: string) => `Consentimento de imagem registrado para ${name}`,
  consentWithdrawn: (name: string) => `Consentimento de imagem retirado para ${name}`,
  privacySaved: 'Privacidade salva',
  exportTitle: 'Relatório de dados pessoais',
} as const;
