import { z } from 'zod';
import {
  ESTELECAS_ACHIEVEMENTS,
  ESTELECAS_BAR_SCALE,
  MAX_OPERATION_AMOUNT,
  MERITUS_GOAL,
  TAG_DURATION_MAX_DAYS,
  TAG_DURATION_MIN_DAYS,
  WEEKLY_TAG_DAYS,
} from './constants.ts';
import type { ErrorCode } from './errors.ts';
import { DEFAULT_TIME_ZONE } from './format.ts';
import { rowId, textInput } from './validation.ts';
import { SIGN_IN_PROVIDERS } from './school-accounts.ts';
import { RANKING_NAME_MODES } from './ranking-privacy.ts';
import { HOW_TO_EARN_MAX_LENGTH } from './how-to-earn.ts';

/**
 * What a school configures (/admin/settings): stored in the database, read by every screen
 * from the server. The constants in constants.ts are the defaults a new school starts with.
 */

export const DEFAULT_SCHOOL_NAME = 'Escola Méritus';
export const SCHOOL_NAME_MAX_LENGTH = 80;
export const TURMA_NAME_MAX_LENGTH = 40;

/** The largest goal, bar scale, threshold or daily cap a school may set: beyond, it is a typo. */
export const RULE_MAX = 1_000_000;
/** A minimum interval between a student's transfers, at most a day. */
export const MIN_INTERVAL_MAX_SECONDS = 86_400;

/** True for a time zone name this runtime knows (IANA: 'America/Sao_Paulo', 'Europe/Lisbon', 'UTC'). */
export function isTimeZone(value: string): boolean {
  if (!value || value.length > 64) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

/** Brazil's zones, offered first in the settings screen. */
const BRAZIL_ZONES = [
  DEFAULT_TIME_ZONE,
  'America/Manaus',
  'America/Cuiaba',
  'America/Belem',
  'America/Fortaleza',
  'America/Recife',
  'America/Bahia',
  'America/Porto_Velho',
  'America/Rio_Branco',
  'America/Noronha',
];

/** The time zones offered in the settings screen: Brazil's first, then every other this runtime knows. */
export function timeZoneOptions(): string[] {
  const all = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return [...BRAZIL_ZONES, ...all.filter((zone) => !BRAZIL_ZONES.includes(zone)), ...(all.includes('UTC') ? [] : ['UTC'])];
}

function wholeNumber(code: ErrorCode, min: number, max: number) {
  return z.number({ error: code }).int({ error: code }).min(min, { error: code }).max(max, { error: code });
}

// ---------------------------------------------------------------- the school

export const schoolInfo = z.object({
  name: z.string(),
  /** Address of the stored logo, or null for the Méritus mark. */
  logoUrl: z.string().nullable(),
  timeZone: z.string(),
});
export type SchoolInfo = z.infer<typeof schoolInfo>;

/** GET /api/settings/public: what the login page shows before anyone signs in (no secrets). */
export const publicSettings = schoolInfo.extend({
  demo: z.boolean(),
  /** The school accounts the server is configured for: their 'Entrar com …' buttons show on the login page. */
  signInProviders: z.array(z.enum(SIGN_IN_PROVIDERS)),
});
export type PublicSettings = z.infer<typeof publicSettings>;

/** PUT /api/admin/settings/school */
export const schoolInfoInput = z.object({
  name: textInput({ error: 'school_name_required', max: SCHOOL_NAME_MAX_LENGTH, maxError: 'school_name_too_long' }).min(1, {
    error: 'school_name_required',
  }),
  timeZone: textInput({ error: 'invalid_time_zone', max: 64, maxError: 'invalid_time_zone' }).refine(isTimeZone, {
    error: 'invalid_time_zone',
  }),
});
export type SchoolInfoInput = z.input<typeof schoolInfoInput>;

// ---------------------------------------------------------------- the rules

/** The most a teacher may be allowed to award in a week, in either currency: beyond, it is a typo. */
export const WEEKLY_BUDGET_MAX = 1_000_000;
const budgetAmount = wholeNumber('invalid_staff_budget', 0, WEEKLY_BUDGET_MAX).nullable();

/**
 * How many M$ and Estelecas a teacher may award per week, each null for no limit; null as a whole when neither has one.
 * A staff member's (Configurações › Equipe), and the school's default for a teacher created without one.
 */
export const weeklyBudget = z.object({ meritus: budgetAmount, estelecas: budgetAmount }, { error: 'invalid_staff_budget' }).nullable();
export type WeeklyBudget = z.infer<typeof weeklyBudget>;

/** A budget as answered: null when neither currency has a limit. */
export function budgetOf(meritus: number | null, estelecas: number | null): WeeklyBudget {
  return meritus === null && estelecas === null ? null : { meritus, estelecas };
}

export const schoolRules = z
  .object({
    /** The Méritus goal of every student's progress bar (M$). */
    meritusGoal: wholeNumber('invalid_meritus_goal', 1, RULE_MAX),
    /** What fills the Estelecas bar. */
    estelecasBarScale: wholeNumber('invalid_bar_scale', 1, RULE_MAX),
    /** Estelecas for the second and third achievements (the first is always the first Esteleca). */
    achievementThresholds: z.object({
      collector: wholeNumber('invalid_achievement_thresholds', 2, RULE_MAX),
      master: wholeNumber('invalid_achievement_thresholds', 3, RULE_MAX),
    }),
    /** A weekly tag's duration when the administrator does not choose one. */
    defaultTagDays: wholeNumber('invalid_tag_days', TAG_DURATION_MIN_DAYS, TAG_DURATION_MAX_DAYS),
    /** Largest amount one operation (award, deduction, transfer) may move. */
    maxOperationAmount: wholeNumber('invalid_max_operation', 1, MAX_OPERATION_AMOUNT),
    /** Méritus a student may transfer in one day of the school's time zone; null for no cap. */
    transferDailyCap: wholeNumber('invalid_daily_cap', 1, RULE_MAX).nullable(),
    /** Seconds a student waits between two transfers; null for none. */
    transferMinIntervalSeconds: wholeNumber('invalid_min_interval', 1, MIN_INTERVAL_MAX_SECONDS).nullable(),
    /** 'Professores podem cadastrar alunos': teachers create, edit and remove students and reset their passwords. */
    teachersManageStudents: z.boolean({ error: 'validation' }),
    /** The weekly budget a teacher gets when created without one; null: no limit. */
    defaultTeacherBudget: weeklyBudget,
    /** A student whose password the staff reset (cards, single reset) must choose their own at the next sign-in. */
    studentsChangeResetPassword: z.boolean({ error: 'validation' }),
    /**
     * How the ranking, the tags and the recipient search show other students to a student (decision 029). These two
     * default when a client that predates them sends the rules without them.
     */
    rankingNames: z.enum(RANKING_NAME_MODES, { error: 'validation' }).default('full'),
    /** Whether a student may choose 'Não aparecer no ranking' (off: every student appears, whatever they chose). */
    rankingHideAllowed: z.boolean({ error: 'validation' }).default(true),
    /** Families (decision 037): whether the family area lists the staff's removals and penalties, and the child's ranking position. */
    familiesSeePenalties: z.boolean({ error: 'validation' }).default(true),
    familiesSeeRanking: z.boolean({ error: 'validation' }).default(true),
    /** The students' page 'Como ganhar Méritus e Estelecas' as the school writes it (plain text); empty: the default (how-to-earn.ts). */
    howToEarnText: textInput({ max: HOW_TO_EARN_MAX_LENGTH, maxError: 'how_to_earn_too_long' }),
  })
  .refine((rules) => rules.achievementThresholds.master > rules.achievementThresholds.collector, {
    error: 'invalid_achievement_thresholds',
    path: ['achievementThresholds', 'master'],
  });
export type SchoolRules = z.infer<typeof schoolRules>;
/** PUT /api/admin/settings/rules: the whole set, as the form shows it. */
export const schoolRulesInput = schoolRules;

export const DEFAULT_RULES: SchoolRules = {
  meritusGoal: MERITUS_GOAL,
  estelecasBarScale: ESTELECAS_BAR_SCALE,
  achievementThresholds: { collector: ESTELECAS_ACHIEVEMENTS[1].threshold, master: ESTELECAS_ACHIEVEMENTS[2].threshold },
  defaultTagDays: WEEKLY_TAG_DAYS,
  maxOperationAmount: MAX_OPERATION_AMOUNT,
  transferDailyCap: null,
  transferMinIntervalSeconds: null,
  teachersManageStudents: false,
  defaultTeacherBudget: null,
  studentsChangeResetPassword: false,
  rankingNames: 'full',
  rankingHideAllowed: true,
  howToEarnText: '',
  familiesSeePenalties: true,
  familiesSeeRanking: true,
};

/** The three achievements with the school's thresholds. */
export function achievementsOf(rules: Pick<SchoolRules, 'achievementThresholds'>): { threshold: number; name: string }[] {
  const [first, second, third] = ESTELECAS_ACHIEVEMENTS;
  return [
    { threshold: first.threshold, name: first.name },
    { threshold: rules.achievementThresholds.collector, name: second.name },
    { threshold: rules.achievementThresholds.master, name: third.name },
  ];
}

// ---------------------------------------------------------------- turmas

export const turma = z.object({
  id: z.uuid(),
  name: z.string(),
  /** A retired turma keeps its students and history; it cannot receive new students. */
  retired: z.boolean(),
});
export type Turma = z.infer<typeof turma>;

/** The administrators' view: how many current students each turma holds. */
export const adminTurma = turma.extend({ students: z.number().int() });
export type AdminTurma = z.infer<typeof adminTurma>;

const turmaName = textInput({ error: 'turma_name_required', max: TURMA_NAME_MAX_LENGTH, maxError: 'turma_name_too_long' }).min(1, {
  error: 'turma_name_required',
});

/** The answer to creating or changing a turma. */
export const turmaWriteResult = z.object({ message: z.string(), turma });
export type TurmaWriteResult = z.infer<typeof turmaWriteResult>;

/** POST /api/admin/turmas */
export const createTurmaInput = z.object({ name: turmaName });
export type CreateTurmaInput = z.input<typeof createTurmaInput>;

/** PATCH /api/admin/turmas/:id: a new name, or retiring / restoring. */
export const updateTurmaInput = z.object({ name: turmaName.optional(), retired: z.boolean({ error: 'validation' }).optional() });
export type UpdateTurmaInput = z.input<typeof updateTurmaInput>;

export const turmaParams = z.object({ id: rowId({ error: 'turma_not_found' }) });

// ---------------------------------------------------------------- everything a screen reads

/** GET /api/settings: what every signed-in screen reads (formatting, goals, lists of turmas). */
export const schoolSettings = z.object({
  school: schoolInfo,
  rules: schoolRules,
  /** In the school's order; retired ones included (lists and filters still show their students). */
  turmas: z.array(turma),
});
export type SchoolSettings = z.infer<typeof schoolSettings>;

export const SETTINGS_TEXTS = {
  schoolSaved: 'Dados da escola salvos',
  rulesSaved: 'Regras salvas',
  logoSaved: 'Logo atualizado',
  logoRemoved: 'Logo removido',
  turmaCreated: (name: string) => `Turma ${name} criada`,
  turmaRenamed: (name: string) => `Turma renomeada para ${name}`,
  turmaUnchanged: (name: string) => `Nada mudou na turma ${name}`,
  /** Above a password shown once (`label`: whose it is). */
  passwordShownOnce: (label: string) => `${label}: entregue-a à pessoa; ela não será mostrada novamente.`,
  turmaRetired: (name: string) => `Turma ${name} desativada`,
  turmaRestored: (name: string) => `Turma ${name} reativada`,
  turmaDeleted: (name: string) => `Turma ${name} apagada`,
} as const;
