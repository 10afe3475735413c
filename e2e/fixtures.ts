import { randomUUID } from 'node:crypto';
import { expect, test as base, type APIRequestContext, type BrowserContext, type Page } from '@playwright/test';
import { FIRST_ANSWERS_ID } from '../src/shared/constants.ts';
import type { AdminStudentsPage } from '../src/shared/admin-students.ts';
import { DEMO_CREDENTIALS } from '../src/shared/demo-accounts.ts';

export const DEMO = DEMO_CREDENTIALS;

export type Role = 'student' | 'admin';

export const HOME: Record<Role, string> = { student: '/student', admin: '/admin' };

/** Signs in through the login form, like a person would, and waits for the home screen. */
export async function login(page: Page, role: Role): Promise<void> {
  await page.goto('/login');
  if (role === 'student') {
    await page.getByRole('tab', { name: 'Estudante' }).click();
    await page.getByLabel('Matrícula').fill(DEMO.student.studentId);
    await page.getByLabel('Senha', { exact: true }).fill(DEMO.student.password);
  } else {
    await page.getByRole('tab', { name: 'Administrador' }).click();
    await page.getByLabel('Email').fill(DEMO.admin.email);
    await page.getByLabel('Senha', { exact: true }).fill(DEMO.admin.password);
  }
  await page.getByRole('button', { name: 'Entrar' }).click();
  await expect(page).toHaveURL(HOME[role]);
}

function requestOf(target: APIRequestContext | BrowserContext | Page): APIRequestContext {
  return 'request' in target ? target.request : target;
}

/**
 * Signs in through the API (for test setup): as the demo student or administrator, or as a
 * student a test created. With a BrowserContext or Page the session cookie lands in the
 * browser; with an APIRequestContext it is kept for later `request` calls.
 */
export async function loginViaApi(target: APIRequestContext | BrowserContext | Page, who: Role | TestStudent | TestTeacher): Promise<void> {
  const request = requestOf(target);
  const response =
    who === 'admin' || (typeof who === 'object' && 'email' in who)
      ? await request.post('/api/auth/admin/login', {
          data: who === 'admin' ? DEMO.admin : { email: who.email, password: who.password },
        })
      : await request.post('/api/auth/student/login', {
          data: who === 'student' ? DEMO.student : { studentId: who.studentId, password: who.password },
        });
  expect(response.status(), await response.text()).toBe(200);
}

/**
 * Opens a path of the app and waits until the page has rendered past the session check. A
 * first load parses the signed-in bundle, which on a machine busy with several browsers takes
 * longer than one expectation's 10 s; the wait ends as soon as the screen is there.
 */
export async function navigate(page: Page, path: string): Promise<void> {
  await page.goto(path);
  await expect(page.getByText('Carregando...', { exact: true })).toHaveCount(0, { timeout: 30_000 });
}

/**
 * Cuts the page's live event stream, so data is read again only when the test asks: a test that lifts a simulated
 * failure and clicks 'Tentar novamente' would otherwise race with an event of another test's operation, which has the
 * screen read again on its own and takes the button away before the click.
 */
export async function withoutLiveEvents(page: Page): Promise<void> {
  await page.route('**/api/events', (route) => route.abort());
}

/**
 * Holds the page's requests of `method` to `path` until `release` is called, then sends them on: a test of what happens
 * while a request is on its way (a double click's second click) cannot have it answered before it has done its part.
 */
export async function holdRequests(page: Page, method: string, path: string): Promise<{ release: () => void }> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(
    (url) => url.pathname === path,
    async (route) => {
      if (route.request().method() !== method) return route.fallback();
      await released;
      await route.continue();
    },
  );
  return { release };
}

/**
 * Takes out of the pages the first screen's answers the server writes into them (decision 012), so the screen asks the
 * API as it would without them, and a test's page.route stands in for those answers too.
 */
export async function withoutFirstAnswers(page: Page): Promise<void> {
  await page.route(
    (url) => !url.pathname.startsWith('/api/') && !url.pathname.startsWith('/assets/'),
    async (route) => {
      if (route.request().resourceType() !== 'document') return route.fallback();
      const response = await route.fetch();
      const html = (await response.text()).replace(
        new RegExp(`<script type="application/json" id="${FIRST_ANSWERS_ID}">[^<]*</script>`),
        '',
      );
      await route.fulfill({ response, body: html });
    },
  );
}

/** GET a JSON answer of the API with the target's session, expecting 200. */
export async function getJson<T>(target: APIRequestContext | BrowserContext | Page, path: string): Promise<T> {
  const response = await requestOf(target).get(path);
  expect(response.status(), `${path}: ${await response.text()}`).toBe(200);
  return (await response.json()) as T;
}

/** A row of GET /api/ranking, and one answer of it (a page with the podium and the asker's row). */
export type { RankingAnswer, RankingEntry as RankingRow } from '../src/shared/students.ts';

export type TestStudent = {
  id: string;
  studentId: string;
  name: string;
  grade: string;
  password: string;
  meritus: number;
  estelecas: number;
};

/** The two sizes every screen is checked at. */
export const VIEWPORTS = [
  { name: 'phone', width: 390, height: 844 },
  { name: 'desktop', width: 1440, height: 900 },
] as const;

/** The coordination's 'Dados pessoais' of a student, opened from Gerenciar Alunos as a person would. */
export async function openPersonalData(page: Page, student: TestStudent) {
  await navigate(page, '/admin/students');
  await page.getByLabel('Buscar por nome, matrícula, email ou turma').fill(student.studentId);
  await page.getByRole('button', { name: `Dados pessoais de ${student.name}` }).click();
  const dialog = page.getByRole('dialog', { name: 'Dados pessoais' });
  await expect(dialog).toBeVisible();
  return dialog;
}

/** A teacher a test created (issue 34): signs in on the staff's form, with their turmas' names. */
export type TestTeacher = { id: string; name: string; email: string; password: string; turmas: readonly string[] };

/** A grade the turma-wide award of admin-area.spec.ts leaves alone, so its award never reaches these students. */
export const TEST_GRADE = '1º EM - Turma B';

const FIRST_NAMES = ['Aurora', 'Bento', 'Cecília', 'Davi', 'Elisa', 'Flávio', 'Glória', 'Heitor', 'Íris', 'Joaquim'];

/** Setup through the API as the demo administrator: fresh students and operations on them. */
export class School {
  constructor(readonly admin: APIRequestContext) {}

  /**
   * A new student nobody else uses, with a known password and balances: a random
   * matrícula and a name made unique by a random surname ("Aurora Kmbdpoa").
   */
  async createStudent(
    options: { meritus?: number; estelecas?: number; grade?: string; email?: string; birthDate?: string } = {},
  ): Promise<TestStudent> {
    const token = randomUUID().replace(/-/g, '');
    const studentId = `9${String(parseInt(token.slice(0, 12), 16)).slice(-8)}`;
    const surname = [...token.slice(12, 19)].map((digit) => 'abcdefghijklmnop'[parseInt(digit, 16)]).join('');
    const name = `${FIRST_NAMES[parseInt(token.slice(-2), 16) % FIRST_NAMES.length]} ${surname[0]!.toUpperCase()}${surname.slice(1)}`;
    const grade = options.grade ?? TEST_GRADE;
    const password = `senha-${token.slice(0, 8)}`;
    const meritus = options.meritus ?? 100;
    const response = await this.admin.post('/api/admin/students', {
      data: { studentId, name, password, grade, meritus, email: options.email, birthDate: options.birthDate },
    });
    expect(response.status(), await response.text()).toBe(201);
    const { student } = (await response.json()) as { student: { id: string } };
    const created: TestStudent = { id: student.id, studentId, name, grade, password, meritus, estelecas: 0 };
    if (options.estelecas) {
      await this.award(created, 'estelecas', options.estelecas, 'Saldo inicial do teste');
      created.estelecas = options.estelecas;
    }
    return created;
  }

  /**
   * A student's balances now, found by matrícula in the staff's search: one exact read, where walking the ranking's
   * pages could miss a student whom other tests' operations move from one page to another between two reads.
   */
  async balances(student: TestStudent): Promise<{ meritus: number; estelecas: number }> {
    const answer = await getJson<AdminStudentsPage>(this.admin, `/api/admin/students?q=${student.studentId}`);
    const row = answer.items.find((item) => item.id === student.id);
    expect(row, `${student.name} in the staff's search`).toBeDefined();
    return { meritus: row!.meritus, estelecas: row!.estelecas };
  }

  /**
   * A new teacher, added by the coordination as Configurações › Equipe does (POST /api/admin/staff), teaching the turmas
   * named (none: a teacher not given turmas yet), with a known password and an email nobody else has.
   */
  async createTeacher(turmaNames: readonly string[] = []): Promise<TestTeacher> {
    const turmas = await getJson<{ id: string; name: string }[]>(this.admin, '/api/admin/turmas');
    const turmaIds = turmaNames.map((name) => {
      const turma = turmas.find((candidate) => candidate.name === name);
      if (!turma) throw new Error(`no turma named ${name}`);
      return turma.id;
    });
    const token = randomUUID().replace(/-/g, '').slice(0, 8);
    const surname = [...token].map((digit) => 'abcdefghijklmnop'[parseInt(digit, 16)]).join('');
    const name = `${FIRST_NAMES[parseInt(token.slice(-2), 16) % FIRST_NAMES.length]} ${surname[0]!.toUpperCase()}${surname.slice(1)}`;
    const email = `prof-${token}@escola.test`;
    const password = `senha-${token}`;
    const response = await this.admin.post('/api/admin/staff', { data: { name, email, role: 'teacher', turmaIds, password } });
    expect(response.status(), await response.text()).toBe(201);
    const { id } = (await response.json()) as { id: string };
    return { id, name, email, password, turmas: turmaNames };
  }

  /** A teacher's reward to a student, as the API makes it. */
  async award(student: { id: string }, currency: 'meritus' | 'estelecas', amount: number, description: string): Promise<void> {
    const response = await this.admin.post(`/api/admin/students/${student.id}/${currency}`, {
      data: { type: 'reward', amount, description },
      headers: { 'Idempotency-Key': randomUUID() },
    });
    expect(response.status(), await response.text()).toBe(201);
  }
}

/** Playwright's test with `school`: an API session of the demo administrator for setting data up. */
export const test = base.extend<{ school: School }>({
  school: async ({ playwright, baseURL }, use) => {
    const admin = await playwright.request.newContext({ baseURL });
    await loginViaApi(admin, 'admin');
    await use(new School(admin));
    await admin.dispose();
  },
});

export { expect };
