import { z } from 'zod';
import { STAFF_ROLES } from './permissions.ts';
import { weeklyBudget } from './settings.ts';
import { personName, rowId, textInput } from './validation.ts';

/**
 * The school's staff (Configurações › Equipe, issue 34): coordinators and teachers, their turmas, weekly award budgets
 * and whether they may sign in. One schema for the screen, the API, the command line and the first start.
 */

const STAFF_PASSWORD_MIN_LENGTH = 8;
/** More turmas than any school gives one teacher: beyond, the request is refused before any query. */
const STAFF_TURMAS_MAX = 200;

export const staffMember = z.object({
  id: z.uuid(),
  name: z.string(),
  email: z.string(),
  role: z.enum(STAFF_ROLES),
  /** The turmas a teacher teaches, in the school's order; a coordinator's is empty: they see every turma. */
  turmaIds: z.array(z.uuid()),
  /** Null: no limit (a coordinator's always). */
  weeklyBudget,
  /** A deactivated member cannot sign in; their name stays on what they did. */
  active: z.boolean(),
  lastLoginAt: z.string().nullable(),
});
export type StaffMember = z.infer<typeof staffMember>;

/** A creation's or a reset's answer: the member, and the generated password, shown once (null when one was typed). */
export const staffWithPassword = staffMember.extend({ password: z.string().nullable() });
export type StaffWithPassword = z.infer<typeof staffWithPassword>;

const staffPassword = textInput({ error: 'password_too_short', max: 200, trim: false }).min(STAFF_PASSWORD_MIN_LENGTH, {
  error: 'admin_password_too_short',
});

const staffRole = z.enum(STAFF_ROLES, { error: 'invalid_staff_role' });
const turmaIds = z.array(rowId({ error: 'staff_turmas_invalid' }), { error: 'staff_turmas_invalid' }).max(STAFF_TURMAS_MAX, {
  error: 'staff_turmas_invalid',
});

/** A member's name with single spaces, as everyone sees it (greetings, 'por …' in histories). */
const staffName = personName('admin_name_required');

/**
 * POST /api/admin/staff, and every other way a member is created (`npm run admin:create`, the diagnostics' fix, the
 * first start, the demo): the email trimmed and lower-cased, the name with single spaces. Without a role, a
 * coordinator; without a budget, a teacher gets the school's default; without a password, one is generated and shown once.
 */
export const createStaffInput = z.object({
  name: staffName,
  email: textInput({ error: 'invalid_email', max: 254 })
    .toLowerCase()
    .pipe(z.email({ error: 'invalid_email' })),
  role: staffRole.default('coordinator'),
  turmaIds: turmaIds.default([]),
  weeklyBudget: weeklyBudget.optional(),
  password: staffPassword.optional(),
});
export type CreateStaffInput = z.input<typeof createStaffInput>;

/** PATCH /api/admin/staff/:id: what changes; what is left out stays. */
export const updateStaffInput = z.object({
  role: staffRole.optional(),
  turmaIds: turmaIds.optional(),
  weeklyBudget: weeklyBudget.optional(),
  active: z.boolean({ error: 'validation' }).optional(),
});
export type UpdateStaffInput = z.input<typeof updateStaffInput>;

/** POST /api/admin/staff/:id/password: without a password, one is generated and shown once. */
export const staffPasswordInput = z.object({ password: staffPassword.optional() });

/** PATCH /api/admin/me: the signed-in member's own account (Meu perfil); it names nobody else. */
export const ownProfileInput = z.object({ name: staffName });
export type OwnProfileInput = z.input<typeof ownProfileInput>;

export const staffParams = z.object({ id: rowId({ error: 'staff_not_found' }) });

export const STAFF_TEXTS = {
  created: (name: string) => `${name} adicionado(a) à equipe`,
  updated: (name: string) => `Dados de ${name} salvos`,
  deactivated: (name: string) => `${name} desativado(a); as sessões abertas foram encerradas`,
  reactivated: (name: string) => `${name} reativado(a)`,
  deactivateWarning: 'As sessões abertas são encerradas na hora e o acesso fica bloqueado até ser reativado.',
  passwordReset: (name: string) => `Senha de ${name} redefinida; as sessões abertas foram encerradas`,
  profileSaved: 'Seu nome foi salvo',
} as const;
