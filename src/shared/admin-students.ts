import { z } from 'zod';
import { selfStudent, studentTag } from './auth.ts';
import { MAX_OPERATION_AMOUNT, TAG_DURATION_MAX_DAYS, TAG_DURATION_MIN_DAYS, TAG_KINDS, TAG_NAMES, type TagKind } from './constants.ts';
import { ERROR_MESSAGES } from './errors.ts';
import { ARCHIVE_PHOTO_URL } from './archive.ts';
import { countOf, formatDate } from './format.ts';
import { calendarDate, instantText, personName, requiredText, rowId, textInput } from './validation.ts';
import { studentPage, studentSearchQuery } from './students.ts';

/** Photo types accepted for upload, by what the file's bytes say it is. */
export const PHOTO_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'] as const;
export const PHOTO_EXTENSIONS = ['jpeg', 'jpg', 'png', 'gif', 'webp'] as const;
/** Longest side of a stored photo and the size of its square thumbnail, in pixels. */
export const PHOTO_MAX_SIDE = 512;
export const PHOTO_THUMB_SIDE = 96;

export const MIN_PASSWORD_LENGTH = 6;

type PhotoType = (typeof PHOTO_TYPES)[number];

/** What a file's first bytes say it is (JPEG, PNG, GIF or WebP); its name and declared type are not trusted. */
export function sniffImageType(bytes: Uint8Array): PhotoType | null {
  const ascii = (from: number, to: number) => String.fromCharCode(...bytes.subarray(from, to));
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (bytes.length >= 8 && png.every((byte, i) => bytes[i] === byte)) return 'image/png';
  if (bytes.length >= 6 && ['GIF87a', 'GIF89a'].includes(ascii(0, 6))) return 'image/gif';
  if (bytes.length >= 12 && ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return 'image/webp';
  return null;
}

const PASSWORD_LETTERS = 'abcdefghjkmnpqrstuvwxyz';
const PASSWORD_DIGITS = '23456789';

/** A uniformly random index below `n`, from the platform's cryptographic source. */
function randomIndex(n: number): number {
  const limit = Math.floor(0x1_0000_0000 / n) * n;
  const buffer = new Uint32Array(1);
  for (;;) {
    globalThis.crypto.getRandomValues(buffer);
    if (buffer[0]! < limit) return buffer[0]! % n;
  }
}

/**
 * A password a student can read off a sheet and type: "kmtr-vbaq-47". No 0/O, 1/l/i to
 * confuse; about 42 bits of randomness, and sign-in attempts are rate-limited.
 */
export function generateReadablePassword(): string {
  const pick = (alphabet: string, n: number) => Array.from({ length: n }, () => alphabet[randomIndex(alphabet.length)]).join('');
  return `${pick(PASSWORD_LETTERS, 4)}-${pick(PASSWORD_LETTERS, 4)}-${pick(PASSWORD_DIGITS, 2)}`;
}
/** Largest file (CSV or .xlsx) a secretary may import at once. */
export const IMPORT_MAX_BYTES = 2 * 1024 * 1024;
export const IMPORT_MAX_ROWS = 5000;
/**
 * Largest .xlsx once unzipped (every part together): 5,000 rows of 30 columns take about 5 MB. A small file that
 * unzips to much more (a zip bomb, or a sheet of a million cells) is refused before the spreadsheet is read.
 */
export const IMPORT_XLSX_MAX_UNZIPPED = 12 * 1024 * 1024;

/** The columns of the import's template, as the import reads them. */
export const IMPORT_TEMPLATE_HEADERS = ['Matrícula', 'Nome', 'Email', 'Turma', 'Data de nascimento'] as const;
/** What begins the template's example row in the matrícula column: a row so marked is never imported. */
export const IMPORT_EXAMPLE_MARK = 'Exemplo';

/** GET /api/admin/students/import/template?format= */
export const importTemplateQuery = z.object({
  format: z.enum(['csv', 'xlsx'], { error: 'report_unknown_format' }).default('csv'),
});

/** A file's turma the coordinator confirmed as one of the school's (the matcher's suggestion for it). */
export const importTurmaChoice = z.object({ from: z.string().max(100), to: z.string().max(100) });
export type ImportTurmaChoice = z.infer<typeof importTurmaChoice>;
/** The form field "turmas" of the import's upload: the confirmed suggestions, as JSON. */
export const importTurmaChoices = z.array(importTurmaChoice).max(200);

/** A student as the administrators' screen lists them. */
export const adminStudent = selfStudent.extend({
  /** A ~96 px version for tables and cards (stored uploads only; otherwise the photo itself). */
  photoThumb: z.string().nullable(),
  photoSource: z.enum(['upload', 'url']).nullable(),
  createdAt: z.string(),
});
export type AdminStudent = z.infer<typeof adminStudent>;

/** The staff's student search: the shared search, narrowed to a turma, or to the students who hold Estelecas. */
export const adminStudentsQuery = studentSearchQuery.extend({
  turma: textInput({ max: 100 }).optional(),
  withEstelecas: z
    .enum(['true', 'false'], { error: 'validation' })
    .transform((value) => value === 'true')
    .optional(),
});
export type AdminStudentsQuery = z.input<typeof adminStudentsQuery>;

/** A page of the staff's search; `schoolTotal` counts every current student, whatever the search. */
export const adminStudentsResponse = studentPage(adminStudent).extend({ schoolTotal: z.number().int() });
export type AdminStudentsPage = z.infer<typeof adminStudentsResponse>;

/** Birth dates as the API stores them: a real calendar day (aaaa-mm-dd), not in the future. */
export function isValidBirthDate(value: string, today: Date = new Date()): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  const date = match ? calendarDate(Number(match[1]), Number(match[2]), Number(match[3])) : null;
  return date !== null && date.getTime() <= today.getTime();
}

/**
 * A date as a secretary types it: dd/mm/aaaa (also d/m/aaaa, with - or .) or aaaa-mm-dd.
 * Returns aaaa-mm-dd, or null when it is not a real, past date.
 */
export function parseBirthDate(raw: string, today: Date = new Date()): string | null {
  const text = raw.trim();
  let iso: string | undefined;
  const br = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})$/.exec(text);
  if (br) iso = `${br[3]}-${br[2]!.padStart(2, '0')}-${br[1]!.padStart(2, '0')}`;
  else if (/^\d{4}-\d{2}-\d{2}$/.test(text)) iso = text;
  return iso && isValidBirthDate(iso, today) ? iso : null;
}

/**
 * Why a photo address is refused, or null: a photo may point to an https address, a file this server stores
 * (/uploads/…) or an image of the archive (its preview, picked in 'Selecionar Imagem para Cadastro'). An http:// address
 * gets its own answer, so the teacher knows to write https.
 */
export function photoUrlProblem(value: string): 'photo_url_not_https' | 'invalid_photo_url' | null {
  if (ARCHIVE_PHOTO_URL.test(value)) return null;
  if (value.startsWith('/uploads/'))
    return /^\/uploads\/[A-Za-z0-9/_.-]+$/.test(value) && !value.includes('..') ? null : 'invalid_photo_url';
  try {
    const { protocol } = new URL(value);
    return protocol === 'https:' ? null : protocol === 'http:' ? 'photo_url_not_https' : 'invalid_photo_url';
  } catch {
    return 'invalid_photo_url';
  }
}

export function isAcceptablePhotoUrl(value: string): boolean {
  return photoUrlProblem(value) === null;
}

const optionalEmail = textInput({ error: 'invalid_email', max: 254, maxError: 'invalid_email' })
  .transform((value) => value.toLowerCase())
  .pipe(z.union([z.literal(''), z.email({ error: 'invalid_email' })]))
  .transform((value) => (value === '' ? null : value))
  .nullable()
  .optional();

const optionalBirthDate = textInput({ error: 'invalid_birth_date', max: 10, maxError: 'invalid_birth_date' })
  .refine((value) => value === '' || isValidBirthDate(value), { error: 'invalid_birth_date' })
  .transform((value) => (value === '' ? null : value))
  .nullable()
  .optional();

export const photoUrlInput = textInput({ error: 'invalid_photo_url', max: 2048, maxError: 'invalid_photo_url' })
  .refine((value) => photoUrlProblem(value) !== 'photo_url_not_https', { error: 'photo_url_not_https', abort: true })
  .refine(isAcceptablePhotoUrl, { error: 'invalid_photo_url' });

/** A turma's name; whether the school has it (and it is active) is the service's rule, against the stored list (settings). */
const gradeInput = requiredText('invalid_grade', 40);

/** A student's password, as the staff sets it and as the student chooses their own. */
export const studentPassword = textInput({ error: 'missing_fields', max: 200, trim: false })
  .min(1, { error: 'missing_fields' })
  .min(MIN_PASSWORD_LENGTH, { error: 'password_too_short' });

/** POST /api/admin/students */
export const createStudentInput = z.object({
  studentId: requiredText('missing_fields', 50, { identifier: true }),
  name: personName('missing_fields'),
  password: studentPassword,
  grade: gradeInput,
  email: optionalEmail,
  birthDate: optionalBirthDate,
  photo: photoUrlInput.nullable().optional(),
  /** Initial Méritus, written as a ledger entry ('Saldo inicial'). */
  meritus: z
    .number({ error: 'invalid_initial_meritus' })
    .int({ error: 'invalid_initial_meritus' })
    .min(0, { error: 'invalid_initial_meritus' })
    .max(MAX_OPERATION_AMOUNT, { error: 'amount_too_large' })
    .optional(),
});
export type CreateStudentInput = z.input<typeof createStudentInput>;

/** PATCH /api/admin/students/:id — balances change only through ledger operations. */
export const updateStudentInput = z.object({
  studentId: requiredText('missing_fields', 50, { identifier: true }).optional(),
  name: personName('missing_fields').optional(),
  grade: gradeInput.optional(),
  email: optionalEmail,
  birthDate: optionalBirthDate,
});
export type UpdateStudentInput = z.input<typeof updateStudentInput>;

export const photoUrlBody = z.object({ url: photoUrlInput });

export const studentUuidParam = z.object({ id: rowId({ error: 'student_not_found' }) });
export const studentTagParams = studentUuidParam.extend({ kind: z.enum(TAG_KINDS, { error: 'not_found' }) });

export const tagDaysInput = z.object({
  days: z
    .number({ error: 'invalid_tag_days' })
    .int({ error: 'invalid_tag_days' })
    .min(TAG_DURATION_MIN_DAYS, { error: 'invalid_tag_days' })
    .max(TAG_DURATION_MAX_DAYS, { error: 'invalid_tag_days' })
    // Without it, the school's default duration (its settings).
    .optional(),
});
export type TagDaysInput = z.input<typeof tagDaysInput>;

/** PATCH /api/admin/students/:id/tags/:kind — moves the end of a tag already given. */
export const tagExpiryInput = z.object({ expiresAt: instantText('invalid_tag_expiry') });

export const tagChangeResult = z.object({ message: z.string(), tags: z.array(studentTag) });
export type TagChangeResult = z.infer<typeof tagChangeResult>;

export const studentWriteResult = z.object({ message: z.string(), student: adminStudent });
export type StudentWriteResult = z.infer<typeof studentWriteResult>;

export const passwordResetResult = z.object({ message: z.string(), password: z.string() });
export type PasswordResetResult = z.infer<typeof passwordResetResult>;

/** One CSV row as the import preview shows it. */
export const importRow = z.object({
  /** Line in the file (the header is line 1). */
  line: z.number().int(),
  studentId: z.string(),
  name: z.string(),
  email: z.string().nullable(),
  /** The normalised grade, or what the file had when it could not be recognised. */
  grade: z.string(),
  birthDate: z.string().nullable(),
  valid: z.boolean(),
  problems: z.array(z.string()),
});
export type ImportRow = z.infer<typeof importRow>;

export const importPreview = z.object({
  rows: z.array(importRow),
  validCount: z.number().int(),
  invalidCount: z.number().int(),
  /** The separator found in a CSV, for the preview's footnote; null for an .xlsx. */
  delimiter: z.string().nullable(),
  /** Each turma of the file that only resembles one of the school's, with the turma suggested and how many rows name it. */
  turmaSuggestions: z.array(importTurmaChoice.extend({ rows: z.number().int(), confirmed: z.boolean() })),
  /** The rows with problems, as the file had them plus a 'Problema' column (CSV, to fix and import again); null when none. */
  problemsCsv: z.string().nullable(),
});
export type ImportPreview = z.infer<typeof importPreview>;

export const importResult = z.object({
  message: z.string(),
  created: z.number().int(),
  skipped: z.number().int(),
  /** Matrícula, name, turma and the generated password of each created student. Shown only now. */
  credentials: z.array(z.object({ id: z.uuid(), studentId: z.string(), name: z.string(), grade: z.string(), password: z.string() })),
  /** The same, as a CSV (UTF-8 with BOM, `;`) ready to download. */
  credentialsCsv: z.string(),
  /** The rows not imported, as in the preview's `problemsCsv`. */
  problemsCsv: z.string().nullable(),
});
export type ImportResult = z.infer<typeof importResult>;

/** Problems the import preview reports, one per broken rule. */
export const IMPORT_PROBLEMS = {
  missingStudentId: 'Matrícula não informada',
  studentIdAsNumber: (raw: string) =>
    `Matrícula convertida pelo Excel em número (${raw}): formate a coluna como Texto e salve o arquivo de novo`,
  missingName: 'Nome não informado',
  missingGrade: 'Turma não informada',
  invalidGrade: (raw: string) => `Turma não reconhecida: "${raw}"`,
  suggestedGrade: (raw: string, turma: string) => `Turma "${raw}" não encontrada; confirme a sugestão "${turma}"`,
  turmaGone: 'A turma não está mais ativa',
  invalidEmail: 'Email inválido',
  invalidBirthDate: 'Data de nascimento inválida (use dd/mm/aaaa)',
  duplicateInFile: (line: number) => `Matrícula repetida no arquivo (linha ${line})`,
  duplicateInDatabase: 'Matrícula já cadastrada',
  emailInFile: (line: number) => `Email repetido no arquivo (linha ${line})`,
  emailInDatabase: 'Email já usado por outro estudante',
  tooLong: 'Texto longo demais',
  invalidText: ERROR_MESSAGES.invalid_text,
} as const;

/** Texts of the Gerenciar Alunos screen: the spec's toasts and our success messages. */
export const ADMIN_STUDENT_TEXTS = {
  loadError: 'Erro ao carregar estudantes',
  saveError: 'Erro ao salvar estudante',
  deleteError: 'Erro ao excluir estudante',
  tagsError: 'Erro ao atualizar tags',
  importError: 'Erro ao importar alunos',
  created: (name: string) => `Estudante ${name} cadastrado com sucesso!`,
  updated: (name: string) => `Estudante ${name} atualizado com sucesso!`,
  deleted: (name: string) => `Estudante ${name} excluído`,
  passwordReset: (name: string) => `Nova senha gerada para ${name}`,
  photoUploaded: 'Foto enviada com sucesso!',
  photoUpdated: 'Foto atualizada com sucesso!',
  photoRemoved: 'Foto removida',
  urlValid: 'URL da imagem válida!',
  tagAdded: (kind: TagKind, expiresAt: string | Date, timeZone?: string) =>
    `Tag ${TAG_NAMES[kind]} adicionada até ${formatDate(expiresAt, timeZone)}`,
  tagRemoved: (kind: TagKind) => `Tag ${TAG_NAMES[kind]} removida`,
  tagExpiryChanged: (kind: TagKind, expiresAt: string | Date, timeZone?: string) =>
    `Tag ${TAG_NAMES[kind]} válida até ${formatDate(expiresAt, timeZone)}`,
  tagsExpired: (count: number) => countOf(count, 'tag expirada removida', 'tags expiradas removidas'),
  importSkipped: (count: number) =>
    `${countOf(count, 'linha com problemas não foi importada', 'linhas com problemas não foram importadas')}.`,
  imported: (count: number) => countOf(count, 'aluno importado', 'alunos importados'),
  importPasswordsFirst: 'Baixe as senhas antes de concluir: depois de fechada esta janela, elas não aparecem de novo.',
} as const;

/** Column headers of the CSV files the school downloads (pt-BR, for Excel). */
export const STUDENTS_CSV_HEADERS = [
  'Matrícula',
  'Nome',
  'Email',
  'Turma',
  'Data de nascimento',
  'Méritus',
  'Total ganho',
  'Estelecas',
  'Tags',
  'Último acesso',
  'Cadastrado em',
] as const;
export const LEDGER_CSV_HEADERS = [
  'Data',
  'Moeda',
  'Tipo',
  'Valor',
  'Descrição',
  'Matrícula (de)',
  'De',
  'Matrícula (para)',
  'Para',
  'Operador',
  /** A reversed row's 'Estornada em … por …: motivo', or a reversal's reason. */
  'Estorno',
] as const;
export const CREDENTIALS_CSV_HEADERS = ['Matrícula', 'Nome', 'Turma', 'Senha inicial'] as const;
/** The column the import's rows with problems get, after the file's own. */
export const IMPORT_PROBLEM_HEADER = 'Problema';
