import sharp from 'sharp';
import { count } from 'drizzle-orm';
import type { Config } from '../config.ts';
import { ConfigError } from '../config.ts';
import type { Db } from '../db/client.ts';
import { admins, students } from '../db/schema.ts';
import { AppError } from '../app-error.ts';
import { createStaffMember } from '../modules/staff/staff.service.ts';
import type { SystemActor } from '../modules/auth/actor.ts';
import { activeTurmas } from '../modules/settings/settings.service.ts';
import { hashPassword } from '../modules/auth/password.ts';
import { GRADES } from '../../shared/constants.ts';
import { seedDemoArchive } from './demo-archive.ts';
import { createFileStorage } from '../storage/storage.ts';
import type { FileStorage } from '../storage/file-storage.ts';
import { seedDemoHistory } from './demo-history.ts';
import { seedDemoStore } from './demo-store.ts';
import { silentEvents } from '../realtime/event-bus.ts';
import { createSchoolYear, schoolToday } from '../modules/school-year/school-year.service.ts';
import { calendarYearInput } from '../../shared/school-year.ts';
import { seededRandom } from './seeded-random.ts';
import { foldText } from '../../shared/student-match.ts';
import { DEMO_CREDENTIALS } from '../../shared/demo-accounts.ts';

export const DEMO_STUDENT = DEMO_CREDENTIALS.student;
export const DEMO_ADMIN = DEMO_CREDENTIALS.admin;
/** The demo's teachers: the first with the 1º EM's first two turmas, the second with three of the 2º EM, each with a weekly budget. */
const [FIRST_TEACHER, SECOND_TEACHER] = DEMO_CREDENTIALS.teachers;
export const DEMO_TEACHERS = [
  { ...FIRST_TEACHER, turmas: ['1º EM - Turma A', '1º EM - Turma B'], weeklyBudget: { meritus: 500, estelecas: 50 } },
  { ...SECOND_TEACHER, turmas: ['2º EM - Turma A', '2º EM - Turma B', '2º EM - Turma C'], weeklyBudget: { meritus: 300, estelecas: null } },
] as const;
/** Whom the audit log names for the administrators a first start creates. */
const DEMO_SEED: SystemActor = { role: 'system', name: 'Escola de demonstração' };
const FIRST_START: SystemActor = { role: 'system', name: 'Primeiro início (ADMIN_EMAIL)' };
/** The variable each field of the first administrator comes from. */
const FIRST_ADMIN_VARIABLES: Record<string, string> = { name: 'ADMIN_NAME', email: 'ADMIN_EMAIL', password: 'ADMIN_PASSWORD' };

const FIRST_NAMES = [
  'Ana',
  'Beatriz',
  'Camila',
  'Daniela',
  'Eduarda',
  'Fernanda',
  'Gabriela',
  'Helena',
  'Isabela',
  'Júlia',
  'Larissa',
  'Manuela',
  'Natália',
  'Olívia',
  'Patrícia',
  'Rafaela',
  'Sofia',
  'Valentina',
  'Yasmin',
  'Lívia',
  'Arthur',
  'Bruno',
  'Caio',
  'Davi',
  'Enzo',
  'Felipe',
  'Gustavo',
  'Heitor',
  'Igor',
  'João',
  'Lucas',
  'Matheus',
  'Nicolas',
  'Otávio',
  'Pedro',
  'Rafael',
  'Samuel',
  'Thiago',
  'Vinícius',
  'Miguel',
];
const SURNAMES = [
  'Silva',
  'Santos',
  'Oliveira',
  'Souza',
  'Rodrigues',
  'Ferreira',
  'Alves',
  'Pereira',
  'Lima',
  'Gomes',
  'Costa',
  'Ribeiro',
  'Martins',
  'Carvalho',
  'Almeida',
  'Lopes',
  'Soares',
  'Fernandes',
  'Vieira',
  'Barbosa',
  'Rocha',
  'Dias',
  'Nascimento',
  'Andrade',
  'Moreira',
  'Nunes',
  'Marques',
  'Machado',
  'Mendes',
  'Freitas',
];
const AVATAR_COLOURS = ['#2563eb', '#7c3aed', '#db2777', '#ea580c', '#16a34a', '#0891b2', '#ca8a04', '#4f46e5'];
export const DEMO_STUDENTS_PER_GRADE = 5;

function pick<T>(random: () => number, list: readonly T[]): T {
  return list[Math.floor(random() * list.length)]!;
}

function emailLocalPart(name: string): string {
  return foldText(name).split(' ').join('.');
}

async function writeAvatar(storage: FileStorage, initials: string, colour: string, fileName: string): Promise<string> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="256" height="256">
    <rect width="256" height="256" fill="${colour}"/>
    <text x="128" y="128" dy="0.35em" text-anchor="middle" font-family="DejaVu Sans, Arial, sans-serif"
      font-size="104" font-weight="700" fill="#ffffff">${initials}</text></svg>`;
  return storage.put(`avatars/${fileName}`, await sharp(Buffer.from(svg)).webp({ quality: 82 }).toBuffer());
}

export type DemoStudentSeed = {
  studentId: string;
  name: string;
  email: string;
  grade: string;
  birthDate: string;
};

/** The demo school's students: five per grade, matrículas from 2024001, realistic names. */
export function demoStudents(): DemoStudentSeed[] {
  const random = seededRandom(2024);
  const used = new Set<string>();
  const list: DemoStudentSeed[] = [];
  let sequence = 1;
  for (const [gradeIndex, grade] of GRADES.entries()) {
    for (let i = 0; i < DEMO_STUDENTS_PER_GRADE; i++) {
      let name: string;
      do {
        name = `${pick(random, FIRST_NAMES)} ${pick(random, SURNAMES)} ${pick(random, SURNAMES)}`;
      } while (used.has(name) || new Set(name.split(' ')).size < 3);
      used.add(name);
      // 1º EM students are about 15 at the start of 2026, 3º EM about 17.
      const year = 2010 - Math.floor(gradeIndex / 4) + (random() < 0.2 ? 1 : 0);
      const month = 1 + Math.floor(random() * 12);
      const day = 1 + Math.floor(random() * 28);
      const parts = name.split(' ');
      list.push({
        studentId: String(2024000 + sequence),
        name,
        email: `${emailLocalPart(`${parts[0]} ${parts[2]}`)}${sequence}@escola.com`,
        grade,
        birthDate: `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`,
      });
      sequence += 1;
    }
  }
  return list;
}

async function isEmpty(db: Db): Promise<boolean> {
  const [[a], [s]] = await Promise.all([db.select({ n: count() }).from(admins), db.select({ n: count() }).from(students)]);
  return (a?.n ?? 0) === 0 && (s?.n ?? 0) === 0;
}

export async function seedDemoSchool(db: Db, storage: FileStorage): Promise<void> {
  await createStaffMember({ db }, DEMO_SEED, DEMO_ADMIN);
  // The migrations' first list of turmas holds the demo's grades.
  const turmaIds = new Map((await activeTurmas(db)).map((turma) => [turma.name, turma.id]));
  for (const { turmas, ...teacher } of DEMO_TEACHERS)
    await createStaffMember({ db }, DEMO_SEED, { ...teacher, role: 'teacher', turmaIds: turmas.map((name) => turmaIds.get(name)!) });
  const seeds = demoStudents();
  const rows = [];
  for (const [index, { grade, ...seed }] of seeds.entries()) {
    const initials = seed.name
      .split(' ')
      .map((part) => part[0])
      .filter(Boolean)
      .slice(0, 2)
      .join('');
    const photoUrl = await writeAvatar(storage, initials, AVATAR_COLOURS[index % AVATAR_COLOURS.length]!, `demo-${seed.studentId}.webp`);
    // Enrolled at the start of the school year, before the three months of history.
    const createdAt = new Date(Date.now() - (120 + index) * 86_400_000);
    rows.push({
      ...seed,
      turmaId: turmaIds.get(grade)!,
      photoUrl,
      photoVersion: 1,
      // The demo school has every family's signed image consent on file (decision 030).
      imageConsent: true,
      createdAt,
      updatedAt: createdAt,
      passwordHash: await hashPassword(DEMO_STUDENT.password),
    });
  }
  await db.insert(students).values(rows);
}

/**
 * The demo school's years: 'Ano letivo {year}' in four bimestres for each calendar year of its history (the students
 * were enrolled 120 days before now), so every row of it has its year and period and the current year is this one.
 */
export async function seedDemoYears(db: Db, now = new Date()): Promise<void> {
  const deps = { db, events: silentEvents };
  const first = Number((await schoolToday(deps, new Date(now.getTime() - 130 * 86_400_000))).slice(0, 4));
  const last = Number((await schoolToday(deps, now)).slice(0, 4));
  for (let year = first; year <= last; year++) await createSchoolYear(deps, DEMO_SEED, calendarYearInput(year));
}

/**
 * First start: the demo school in demo mode; otherwise the first administrator
 * from ADMIN_EMAIL / ADMIN_PASSWORD, without which a production server cannot be used.
 * Returns what it did, for the start-up log.
 */
export async function ensureInitialData(db: Db, config: Config): Promise<'demo' | 'first_admin' | 'none'> {
  if (!(await isEmpty(db))) return 'none';
  if (config.demo) {
    const storage = createFileStorage(config);
    await seedDemoSchool(db, storage);
    await seedDemoHistory(db);
    await seedDemoArchive(db, storage, config.dataDir);
    await seedDemoStore(db);
    await seedDemoYears(db);
    return 'demo';
  }
  if (!config.firstAdmin) {
    throw new ConfigError(
      'O banco de dados está vazio e não há administrador. Defina ADMIN_EMAIL e ADMIN_PASSWORD (mínimo 8 caracteres) ' +
        'para criar o primeiro administrador, ou use DEMO=on para a escola de demonstração.',
    );
  }
  const created = await createStaffMember({ db }, FIRST_START, config.firstAdmin, { onlyIfNone: true }).catch((error: unknown) => {
    if (!(error instanceof AppError)) throw error;
    const problems = Object.entries(error.fields ?? {}).map(([field, message]) => `${FIRST_ADMIN_VARIABLES[field] ?? field}: ${message}`);
    throw new ConfigError(`O primeiro administrador não pôde ser criado. ${problems.join('; ') || error.message}`);
  });
  return created ? 'first_admin' : 'none';
}
