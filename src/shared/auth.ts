import { z } from 'zod';
import { TAG_KINDS } from './constants.ts';
import { PERMISSIONS, STAFF_ROLES } from './permissions.ts';
import { textInput } from './validation.ts';
import { SIGN_IN_PROVIDERS } from './school-accounts.ts';

export const studentLoginInput = z.object({
  studentId: textInput({ error: 'student_login_failed', max: 50, identifier: true }).min(1, { error: 'missing_fields' }),
  password: textInput({ error: 'student_login_failed', max: 200, trim: false }).min(1, { error: 'missing_fields' }),
});
export type StudentLoginInput = z.infer<typeof studentLoginInput>;

export const adminLoginInput = z.object({
  email: textInput({ error: 'admin_login_failed', max: 254 }).min(1, { error: 'missing_fields' }),
  password: textInput({ error: 'admin_login_failed', max: 200, trim: false }).min(1, { error: 'missing_fields' }),
});
export type AdminLoginInput = z.infer<typeof adminLoginInput>;

/** /api/auth/oidc/:provider/… */
export const signInProviderParams = z.object({ provider: z.enum(SIGN_IN_PROVIDERS) });

/**
 * What a provider sends back to /api/auth/oidc/:provider/callback (OAuth 2.0, RFC 6749 §4.1.2, and the issuer of RFC
 * 9207). Each is checked by the sign-in itself, against the state kept for it; a provider may add others (Google's
 * `hd`, Microsoft's `session_state`).
 */
export const signInCallbackQuery = z.looseObject({
  code: z.string().max(4096).optional(),
  state: z.string().max(512).optional(),
  iss: z.string().max(2048).optional(),
  error: z.string().max(256).optional(),
  error_description: z.string().max(2048).optional(),
});

export const studentTag = z.object({
  kind: z.enum(TAG_KINDS),
  assignedAt: z.string(),
  expiresAt: z.string(),
});
export type StudentTag = z.infer<typeof studentTag>;

/** What every signed-in user may see about any student. */
export const publicStudent = z.object({
  id: z.uuid(),
  studentId: z.string(),
  name: z.string(),
  grade: z.string(),
  photo: z.string().nullable(),
  meritus: z.number().int(),
  estelecas: z.number().int(),
  tags: z.array(studentTag),
});
export type PublicStudent = z.infer<typeof publicStudent>;

/** The signed-in student's own record. */
export const selfStudent = publicStudent.extend({
  email: z.string().nullable(),
  birthDate: z.string().nullable(),
  totalEarned: z.number().int(),
  lastLogin: z.string().nullable(),
  /** 'Não aparecer no ranking' as the student chose it (in effect while the school allows it). */
  rankingHidden: z.boolean(),
});
export type SelfStudent = z.infer<typeof selfStudent>;

export const selfAdmin = z.object({
  id: z.uuid(),
  adminId: z.string(),
  name: z.string(),
  email: z.string(),
  role: z.enum(STAFF_ROLES),
  /** What the screens offer: the role's permissions under the school's rules (src/shared/permissions.ts). */
  permissions: z.array(z.enum(PERMISSIONS)),
  /** A teacher's turmas (the students they see and award); a coordinator's list is empty: they see every turma. */
  turmas: z.array(z.object({ id: z.uuid(), name: z.string() })),
});
export type SelfAdmin = z.infer<typeof selfAdmin>;

/** A signed-in responsável (decision 037): who they are; their children come from the family routes. */
export const selfGuardian = z.object({ id: z.uuid(), name: z.string(), email: z.string() });
export type SelfGuardian = z.infer<typeof selfGuardian>;

export const sessionUser = z.discriminatedUnion('role', [
  z.object({
    role: z.literal('student'),
    student: selfStudent,
    /** The school requires a new password after a reset and this student has not chosen one yet: only that screen opens. */
    passwordChangeRequired: z.literal(true).optional(),
  }),
  z.object({ role: z.literal('coordinator'), admin: selfAdmin }),
  z.object({ role: z.literal('teacher'), admin: selfAdmin }),
  z.object({ role: z.literal('guardian'), guardian: selfGuardian }),
]);
export type SessionUser = z.infer<typeof sessionUser>;
