import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { test, expect, getJson, holdRequests, loginViaApi, navigate, type School, type TestStudent } from './fixtures.ts';
import { expectNoSeriousA11yViolations } from './axe.ts';
import type { AdminStudentsPage } from '../src/shared/admin-students.ts';

/**
 * The 'Virada do ano' wizard (issue 38). Applying it moves every student of the school and closes the year, so this file
 * runs in its own Playwright project after all the others (playwright.config.ts), on the run's fresh database: the phone
 * test walks the wizard to a preview made stale and asks a new one without applying; the desktop test applies.
 */
test.describe.configure({ mode: 'serial' });

const SHOTS = '/tmp/year-wizard';
mkdirSync(SHOTS, { recursive: true });

type Setup = {
  from: string;
  next: string;
  last: string;
  mover: TestStudent;
  repeater: TestStudent;
  graduate: TestStudent;
  leaver: TestStudent;
};

/** Turmas of its own, named so the proposal maps them (8º ano → 9º ano, 3º EM → Formados), and a student for each case. */
async function setUp(school: School): Promise<Setup> {
  const suffix = [...randomUUID().replace(/-/g, '').slice(0, 5)].map((digit) => 'abcdefghijklmnop'[parseInt(digit, 16)]).join('');
  const tag = `${suffix[0]!.toUpperCase()}${suffix.slice(1)}`;
  const [from, next, last] = [`8º ano ${tag}`, `9º ano ${tag}`, `3º EM ${tag}`];
  for (const name of [from, next, last]) {
    const response = await school.admin.post('/api/admin/turmas', { data: { name } });
    expect(response.status(), await response.text()).toBe(201);
  }
  return {
    from,
    next,
    last,
    mover: await school.createStudent({ grade: from, meritus: 120, estelecas: 3 }),
    repeater: await school.createStudent({ grade: from, meritus: 40 }),
    graduate: await school.createStudent({ grade: last, meritus: 75 }),
    leaver: await school.createStudent({ grade: next, meritus: 10 }),
  };
}

async function shot(page: Page, name: string) {
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

/** Steps 1 to 3 as a coordinator goes through them: the proposal checked, a repeater and a transfer out, Méritus closed. */
async function walkToPreview(page: Page, setup: Setup, size: string) {
  await loginViaApi(page, 'admin');
  await navigate(page, '/admin/settings');
  await page.getByRole('link', { name: 'Virada do ano' }).click();
  await expect(page.getByRole('heading', { name: 'Virada do ano', level: 1 })).toBeVisible();

  // 1. Turmas: the proposal from the names.
  await expect(page.getByRole('combobox', { name: `Destino de ${setup.from}` }).locator('option:checked')).toHaveText(setup.next);
  await expect(page.getByRole('combobox', { name: `Destino de ${setup.last}` }).locator('option:checked')).toHaveText('Formados');
  await expect(page.getByRole('combobox', { name: `Destino de ${setup.next}` }).locator('option:checked')).toHaveText('Fica como está');
  await expectNoSeriousA11yViolations(page);
  await shot(page, `1-turmas-${size}`);

  // A turma for the newcomers, created here, is offered as a destination at once.
  const newcomers = `6º ano ${setup.from.slice(-5)}`;
  await page.getByLabel('Nova turma para quem chega').fill(newcomers);
  await page.getByRole('button', { name: 'Criar turma' }).click();
  await expect(page.getByRole('combobox', { name: `Destino de ${setup.next}` }).locator('option', { hasText: newcomers })).toHaveCount(1);

  // Each student: filtered by turma, the repeater stays; found by name, the leaver transfers out.
  await page.getByRole('combobox', { name: 'Turma', exact: true }).selectOption({ label: setup.from });
  const students = page.getByRole('list', { name: 'Alunos e seus destinos' });
  await expect(students.getByRole('listitem')).toHaveCount(2);
  await expect(students.getByRole('listitem').filter({ hasText: setup.mover.name })).toContainText(`${setup.from} → ${setup.next}`);
  await students
    .getByRole('combobox', { name: `Destino de ${setup.repeater.name}` })
    .selectOption({ label: `Repete: fica em ${setup.from}` });
  await expect(students.getByRole('listitem').filter({ hasText: setup.repeater.name })).toContainText(`${setup.from} → ${setup.from}`);
  await page.getByRole('combobox', { name: 'Turma', exact: true }).selectOption({ label: 'Todas as turmas' });
  await page.getByRole('searchbox', { name: 'Buscar aluno' }).fill(setup.leaver.name);
  await expect(students.getByRole('listitem')).toHaveCount(1);
  await students.getByRole('combobox', { name: `Destino de ${setup.leaver.name}` }).selectOption({ label: 'Saída da escola' });
  await shot(page, `1-alunos-${size}`);

  // 2. Formados e saídas.
  await page.getByRole('button', { name: 'Próximo: Formados e saídas' }).click();
  const leaving = page.getByRole('list', { name: 'Alunos que se formam ou saem' });
  await expect(leaving.getByRole('listitem').filter({ hasText: setup.graduate.name })).toContainText('Formados');
  await expect(leaving.getByRole('listitem').filter({ hasText: setup.leaver.name })).toContainText('Saída da escola');
  await expect(leaving.getByRole('listitem').filter({ hasText: setup.repeater.name })).toHaveCount(0);
  await expectNoSeriousA11yViolations(page);
  await shot(page, `2-saidas-${size}`);

  // 3. Saldos: Méritus closed, Estelecas kept, what closing means said in words.
  await page.getByRole('button', { name: 'Próximo: Saldos' }).click();
  await page.getByRole('group', { name: 'Saldos de Méritus' }).getByRole('radio', { name: 'Encerrar' }).check();
  await expect(page.getByRole('group', { name: 'Saldos de Estelecas' }).getByRole('radio', { name: 'Manter' })).toBeChecked();
  await expect(page.getByText(/cada saldo vai a zero com um lançamento próprio, “Encerramento do Ano letivo \d{4}”/)).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await shot(page, `3-saldos-${size}`);

  // 4. The preview: the server's sentence and counts.
  await page.getByRole('button', { name: 'Próximo: Prévia e aplicar' }).click();
  await expect(page.getByText(/alunos? mudam? de turma, .* saldos? encerrados?, total .*M\$/)).toBeVisible();
  await expect(page.getByText('Saem da escola').locator('..')).toContainText(/[1-9]/);
  await expectNoSeriousA11yViolations(page);
  await shot(page, `4-previa-${size}`);
}

async function studentRow(school: School, student: TestStudent) {
  const answer = await getJson<AdminStudentsPage>(school.admin, `/api/admin/students?q=${student.studentId}`);
  return answer.items.find((item) => item.id === student.id);
}

test('the rollover wizard on a phone: every step, and a preview gone stale is made again (390×844)', async ({ page, school }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const setup = await setUp(school);
  await walkToPreview(page, setup, 'phone');

  // Someone awards a student meanwhile: the apply is refused with the server's message, nothing changes, a new preview is offered.
  await school.award(setup.mover, 'meritus', 5, 'Prêmio durante a prévia');
  await page.getByRole('checkbox', { name: /Confirmo a virada do Ano letivo \d{4}/ }).check();
  await page.getByRole('button', { name: /Aplicar a virada do Ano letivo/ }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Os dados mudaram desde a prévia' })).toBeVisible();
  await shot(page, `4-previa-desatualizada-phone`);
  await page.getByRole('button', { name: 'Gerar nova prévia' }).click();
  await expect(page.getByRole('button', { name: /Aplicar a virada do Ano letivo/ })).toBeDisabled();
  await expect(page.getByRole('checkbox', { name: /Confirmo a virada/ })).not.toBeChecked();
  expect((await studentRow(school, setup.graduate))?.id).toBe(setup.graduate.id);
});

test("a teacher's address of the wizard says 'Sem permissão', and the preview answers 403", async ({ browser, school }) => {
  const teacher = await school.createTeacher();
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: 'pt-BR', reducedMotion: 'reduce' });
  const page = await context.newPage();
  await loginViaApi(page, teacher);
  await navigate(page, '/admin/virada-do-ano');
  await expect(page.getByRole('heading', { level: 1, name: 'Sem permissão' })).toBeVisible();
  expect(
    (await page.request.post('/api/admin/rollover/preview', { data: { balances: { meritus: 'keep', estelecas: 'keep' } } })).status(),
  ).toBe(403);
  await context.close();
});

test('the rollover wizard applied once, whatever the clicks: students moved, graduated, balances closed (1440×900)', async ({
  page,
  school,
}) => {
  const setup = await setUp(school);
  await walkToPreview(page, setup, 'desktop');

  const applies: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && new URL(request.url()).pathname === '/api/admin/rollover/apply')
      applies.push(request.headers()['idempotency-key'] ?? '');
  });
  const held = await holdRequests(page, 'POST', '/api/admin/rollover/apply');
  const apply = page.getByRole('button', { name: /Aplicar a virada do Ano letivo/ });
  await expect(apply).toBeDisabled();
  await page.getByRole('checkbox', { name: /Confirmo a virada do Ano letivo \d{4}/ }).check();
  await apply.dblclick();
  await expect(page.getByRole('button', { name: 'Aplicando…' })).toBeDisabled();
  held.release();
  await expect(page.getByRole('heading', { name: /^Virada do Ano letivo \d{4} aplicada$/ })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText(/Cópia de segurança: virada-.*\.tar\.gz/)).toBeVisible();
  expect(applies).toHaveLength(1);
  expect(applies[0]).toMatch(/^[0-9a-f-]{36}$/);
  await expectNoSeriousA11yViolations(page);
  await shot(page, 'resultado-desktop');

  // What the school now holds: the mover in the next turma with Méritus closed and Estelecas kept, the repeater where they
  // were, the graduate and the leaver no longer current students.
  const mover = await studentRow(school, setup.mover);
  expect(mover).toMatchObject({ grade: setup.next, meritus: 0, estelecas: 3 });
  expect(await studentRow(school, setup.repeater)).toMatchObject({ grade: setup.from, meritus: 0 });
  expect(await studentRow(school, setup.graduate)).toBeUndefined();
  expect(await studentRow(school, setup.leaver)).toBeUndefined();

  // The wizard opened again says the year is closed, and where to go.
  await navigate(page, '/admin/virada-do-ano');
  await expect(page.getByText(/O Ano letivo \d{4} já foi encerrado/)).toBeVisible();
  await expect(page.getByRole('link', { name: 'Ir para Configurações › Ano letivo' })).toBeVisible();
  await shot(page, 'encerrado-desktop');
});
