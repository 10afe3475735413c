import { randomUUID } from 'node:crypto';
import type { StudentSummary } from '../src/shared/student-area.ts';
import { expectNoSeriousA11yViolations } from './axe.ts';
import { expect, getJson, loginViaApi, navigate, test, TEST_GRADE } from './fixtures.ts';

/**
 * A teacher's weekly award budget (issue 34) on the award screens: what is left shows beside the form, goes down
 * after each award, and an award beyond it is refused in the form with what is left, changing nothing.
 */
test('a teacher awards within the weekly budget, sees what is left, and is refused beyond it', async ({ page, school }) => {
  const student = await school.createStudent({ meritus: 0 });
  const turmas = await getJson<{ id: string; name: string }[]>(school.admin, '/api/admin/turmas');
  const email = `prof-${randomUUID().slice(0, 8)}@escola.test`;
  const password = `senha-${randomUUID().slice(0, 8)}`;
  const created = await school.admin.post('/api/admin/staff', {
    data: {
      name: 'Professora Orçamento',
      email,
      password,
      role: 'teacher',
      turmaIds: [turmas.find((turma) => turma.name === TEST_GRADE)!.id],
      weeklyBudget: { meritus: 100, estelecas: 5 },
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const signedIn = await page.request.post('/api/auth/admin/login', { data: { email, password } });
  expect(signedIn.status()).toBe(200);

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
