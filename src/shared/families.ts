import { z } from 'zod';
import { countOf } from './format.ts';
import { studentTag } from './auth.ts';
import { myOrder } from './store.ts';
import { studentOperation } from './ledger.ts';
import { createStaffInput } from './staff.ts';
import { rowId, textInput } from './validation.ts';

/*
 * Responsáveis (issue 37, decision 037): a guardian follows the students linked to them, read-only. The school gives a
 * one-time code per student ('Carta para responsáveis'); the guardian signs up with it, and adds another child with
 * that child's code.
 */

/** Days a code stays valid. */
export const GUARDIAN_CODE_DAYS = 30;
/** Characters of a code (Crockford's base 32: no I, L, O, U), 5 bits each: 60 random bits, shown in groups of four. */
export const GUARDIAN_CODE_LENGTH = 12;
export const GUARDIAN_CODE_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
/** Operations the family area lists per child (the newest). */
export const FAMILY_RECENT_OPERATIONS = 20;

/**
 * A code as typed: any case, with or without the dashes and spaces of the letter; the letters Crockford reads as digits
 * (O, I, L) read as them. Anything else is left as typed, and is no code.
 */
export function normalizeGuardianCode(typed: string): string {
  return typed.toUpperCase().replace(/[\s-]/g, '').replace(/O/g, '0').replace(/[IL]/g, '1');
}

/** A code as the letter prints it: XXXX-XXXX-XXXX. */
export function formatGuardianCode(code: string): string {
  return code.match(/.{1,4}/g)?.join('-') ?? code;
}

const guardianCode = textInput({ error: 'guardian_code_invalid', max: 40 }).min(1, { error: 'missing_fields' });

/** POST /api/auth/guardian/signup: the code of one child, and the account (the staff's rules for names, emails and passwords). */
export const guardianSignupInput = z.object({
  code: guardianCode,
  email: createStaffInput.shape.email,
  name: createStaffInput.shape.name,
  password: createStaffInput.shape.password.unwrap(),
});
export type GuardianSignupInput = z.infer<typeof guardianSignupInput>;

/** POST /api/auth/guardian/login. */
export const guardianLoginInput = z.object({
  email: textInput({ error: 'admin_login_failed', max: 254 }).min(1, { error: 'missing_fields' }),
  password: textInput({ error: 'admin_login_failed', max: 200, trim: false }).min(1, { error: 'missing_fields' }),
});
export type GuardianLoginInput = z.infer<typeof guardianLoginInput>;

/** POST /api/family/children: another child's code. */
export const addChildInput = z.object({ code: guardianCode });
export type AddChildInput = z.infer<typeof addChildInput>;

/** POST /api/admin/students/:id/guardian-codes: a new code, shown once; the student's earlier unused codes are revoked. */
export const guardianCodeResult = z.object({ code: z.string(), expiresAt: z.string(), message: z.string() });
export type GuardianCodeResult = z.infer<typeof guardianCodeResult>;

/** GET /api/admin/students/:id/guardians: who follows the student, and the code waiting to be used (if any). */
export const studentGuardians = z.object({
  guardians: z.array(z.object({ id: z.uuid(), name: z.string(), email: z.string(), linkedAt: z.string() })),
  pendingCode: z.object({ createdAt: z.string(), expiresAt: z.string() }).nullable(),
});
export type StudentGuardians = z.infer<typeof studentGuardians>;

/** DELETE /api/admin/guardians/:id/students/:studentId. */
export const guardianLinkParams = z.object({
  id: rowId({ error: 'guardian_link_not_found' }),
  studentId: rowId({ error: 'guardian_link_not_found' }),
});

/** /api/family/children/:id: one of the guardian's children (any other id is 'not found' alike). */
export const familyChildParam = z.object({ id: rowId({ error: 'family_child_not_found' }) });

/** A child as the family list shows them. */
export const familyChild = z.object({
  id: z.uuid(),
  name: z.string(),
  grade: z.string(),
  photo: z.string().nullable(),
  meritus: z.number().int(),
  estelecas: z.number().int(),
});
export type FamilyChild = z.infer<typeof familyChild>;
export const familyChildren = z.object({ children: z.array(familyChild) });
export type FamilyChildren = z.infer<typeof familyChildren>;

/**
 * GET /api/family/children/:id/summary: what the family area shows of one child. `operations` leave out the staff's
 * removals and penalties unless the school shows them to families; `ranking` is null when the school does not show
 * the ranking to families (else the child's position as the child sees it).
 */
export const familyChildSummary = z.object({
  child: familyChild,
  /** Whether the school has the image consent: from the signed form, or given here by a guardian. */
  imageConsent: z.boolean(),
  tags: z.array(studentTag),
  operations: z.array(studentOperation),
  orders: z.array(myOrder),
  ranking: z.object({ position: z.number().int(), of: z.number().int() }).nullable(),
  /** The Estelecas achievements (student-figures.ts): earned once the child's highest balance reached them. */
  achievements: z.array(z.object({ name: z.string(), threshold: z.number().int(), earned: z.boolean(), missing: z.number().int() })),
});
export type FamilyChildSummary = z.infer<typeof familyChildSummary>;

export const GUARDIAN_LETTER_TEXTS = {
  documentTitle: (what: string) => `Cartas para responsáveis — ${what}`,
  selected: 'alunos escolhidos',
  title: 'Carta para responsáveis',
  intro: (name: string) =>
    `A escola usa o Méritus para reconhecer o esforço dos alunos. Com a sua conta de responsável, você acompanha ${name}: ` +
    'Méritus e Estelecas, conquistas, as operações com seus motivos e os pedidos na Loja.',
  code: 'Código de acesso',
  validUntil: (date: string) => `Válido até ${date}, uma só vez.`,
  steps: [
    (address: string) => `Abra ${address} no celular ou no computador (ou aponte a câmera para o QR code).`,
    () => 'Digite o código acima, seu nome, seu email e uma senha de pelo menos 8 caracteres.',
    () => 'Pronto: entre quando quiser na aba Responsável do login. Outro filho se adiciona com o código da carta dele.',
  ],
  scan: 'Aponte a câmera para abrir a página',
  keep: 'Este código é só seu: não o compartilhe. Um código novo da escola substitui este.',
  fileName: (slug: string, day: string) => `cartas-responsaveis-${slug}-${day}.pdf`,
  /** The confirmation, before anything happens. */
  confirm: (count: number) =>
    `Cada um de ${countOf(count, 'aluno', 'alunos')} recebe um código novo; os códigos ainda não usados deixam de valer. ` +
    'Os códigos aparecem só no PDF.',
  done: (count: number) => `${countOf(count, 'carta para responsáveis gerada', 'cartas para responsáveis geradas')}`,
} as const;

export const FAMILY_TEXTS = {
  codeCreated: (name: string) => `Código de acesso para responsáveis de ${name} gerado; os códigos anteriores deixaram de valer`,
  linkRemoved: (guardian: string, student: string) => `${guardian} não acompanha mais ${student}`,
  childAdded: (name: string) => `${name} foi adicionado(a) à sua conta`,
} as const;
