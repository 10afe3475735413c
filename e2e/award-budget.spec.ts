import { randomUUID } from 'node:crypto';
import type { StudentSummary } from '../src/shared/student-area.ts';
import { expectNoSeriousA11yViolations } from './axe.ts';
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, getJson, loginViaApi, navigate, test, TEST_GRADE } from './fixtures.ts';

/** A new teacher of TEST_GRADE with this weekly budget, made by the coordination (Equipe's route), signed in on `page`. */
async function teacherOn(page: Page, admin: APIRequestContext, weeklyBudget: { meritus: number; estelecas: number }) {
  const turmas = await getJson<{ id: string; name: string }[]>(admin, '/api/admin/turmas');
  const token = randomUUID().slice(0, 8);
  const teacher = { name: `Professora Orçamento ${token}`, email: `prof-${token}@escola.test`, password: `senha-${token}` };
  const created = await admin.post('/api/admin/staff', {
    data: { ...teacher, role: 'teacher', turmaIds: [turmas.find((turma) => turma.name === TEST_GRADE)!.id], weeklyBudget },
  });
  expect(created.status(), await created.text()).toBe(201);
  const signedIn = await page.request.post('/api/auth/admin/login', { data: { email: teacher.email, password: teacher.password } });
  expect(signedIn.status()).toBe(200);
  return teacher;
}

/**
 * A teacher's weekly award budget (issue 34) on the award screens: what is left shows beside the form, goes down
 * after each award, and an award beyond it is refused in the form with what is left, changing nothing.
 */
test('a teacher awards within the weekly budget, sees what is left, and is refused beyond it', async ({ page, school }) => {
  const student = await school.createStudent({ meritus: 0 });
  await teacherOn(page, school.admin, { meritus: 100, estelecas: 5 });

  await navigate(page, '/admin/meritus');
  const left = page.getByText(/esta semana$/);
  await expect(left).toHaveText('Você ainda pode conceder 100 M$ esta semana');

  const award = async (amount: string) => {
    await page.getByLabel('Buscar estudante').fill(student.studentId);
    await page.getByRole('checkbox', { name: new RegExp(student.name) }).check();
    await page.getByLabel('Valor (M$)').fill(amount);
    await page.getByLabel('Descrição').fill('Participação');
    await page.getByRole('button', { name: 'Adicionar Méritus' }).click();
  };
  await award('60');
  await expect(page.getByText(`60 M$ adicionados a ${student.name}`)).toBeVisible();
  await expect(left).toHaveText('Você ainda pode conceder 40 M$ esta semana');

  await award('50');
  await expect(page.getByRole('alert')).toHaveText('Limite semanal de concessão atingido. Você ainda pode conceder 40 M$ esta semana.');
  await expect(left).toHaveText('Você ainda pode conceder 40 M$ esta semana');
  await expectNoSeriousA11yViolations(page);

  await loginViaApi(page.context(), student);
  expect((await getJson<StudentSummary>(page, '/api/me/summary')).meritus).toBe(60);
});

test("the coordination follows one teacher's operations in the live feed, refusals included", async ({ browser, page, school }) => {
  const student = await school.createStudent({ meritus: 0 });
  const teacherContext = await browser.newContext();
  const teacherPage = await teacherContext.newPage();
  const teacher = await teacherOn(teacherPage, school.admin, { meritus: 10, estelecas: 5 });
  for (const amount of [8, 5]) {
    await teacherPage.request.post(`/api/admin/students/${student.id}/meritus`, {
      data: { type: 'reward', amount, description: `Leitura ${teacher.name}` },
      headers: { 'Idempotency-Key': randomUUID() },
    });
  }
  await teacherContext.close();

  await loginViaApi(page.context(), 'admin');
  await navigate(page, '/admin/recent-operations');
  await page.getByLabel('Autor').selectOption({ label: teacher.name });
  const lines = page.getByTestId('live-operation');
  await expect(lines).toHaveCount(2);
  await expect(lines.nth(0)).toContainText('Recusada: Limite semanal de concessão atingido');
  await expect(lines.nth(1)).toContainText('8 M$');
  await expect(lines.nth(1)).toContainText(`por ${teacher.name}`);
});
