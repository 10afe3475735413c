import { randomUUID } from 'node:crypto';
import { expectNoSeriousA11yViolations } from './axe.ts';
import { expect, loginViaApi, navigate, test } from './fixtures.ts';

const DEMO_ADMIN_NAME = 'Administrador Principal';

test('the coordination reverses an award on Gerenciar M$: a reason is required, and the line shows "Estornada em …"', async ({
  browser,
  page,
  school,
}) => {
  const student = await school.createStudent({ meritus: 10 });
  const description = `Monitoria por engano ${randomUUID().slice(0, 6)}`;
  await school.award(student, 'meritus', 40, description);

  await loginViaApi(page.context(), 'admin');
  await navigate(page, '/admin/meritus');
  // The award's line (once reversed, its reversal's line 'Estorno: …' comes above it).
  const row = page.getByRole('listitem').filter({ hasText: description, hasNotText: 'Estorno:' });
  await row.getByRole('button', { name: /^Estornar/ }).click();
  const dialog = page.getByRole('dialog', { name: 'Estornar operação' });
  await expect(dialog).toContainText(description);
  await expectNoSeriousA11yViolations(page, { within: '[role="dialog"]' });

  // No reason: refused on the form, with the server's own text, and nothing is sent.
  await dialog.getByRole('button', { name: 'Estornar', exact: true }).click();
  await expect(dialog.getByRole('alert')).toHaveText('Informe o motivo do estorno');

  await dialog.getByLabel('Motivo do estorno').fill('Lançado para o aluno errado');
  await dialog.getByRole('button', { name: 'Estornar', exact: true }).click();
  await expect(page.getByText('Operação estornada')).toBeVisible();
  await expect(dialog).toBeHidden();

  const today = new Intl.DateTimeFormat('pt-BR', { timeZone: 'America/Sao_Paulo', dateStyle: 'short' }).format(new Date());
  const note = `Estornada em ${today} por ${DEMO_ADMIN_NAME}: Lançado para o aluno errado`;
  // The line updates at once; it can no longer be reversed, and the reversal's own line reads clearly.
  await expect(row).toContainText(note);
  await expect(row.getByRole('button', { name: /^Estornar/ })).toHaveCount(0);
  await expect(page.getByText(`Estorno: ${description}`)).toBeVisible();

  // The live feed says so too, and the student sees the balance back and the note on their own screens.
  await navigate(page, '/admin/recent-operations');
  await expect(page.getByTestId('live-operation').filter({ hasText: description, hasNotText: 'Estorno:' })).toContainText(note);

  const studentContext = await browser.newContext();
  await loginViaApi(studentContext, student);
  const studentPage = await studentContext.newPage();
  await navigate(studentPage, '/student/recent-operations');
  await expect(studentPage.getByRole('listitem').filter({ hasText: description, hasNotText: 'Estorno:' })).toContainText(note);
  await navigate(studentPage, '/student');
  await expect(studentPage.getByRole('region', { name: 'Seus Méritus' })).toContainText('10 M$');
  await studentContext.close();
});
