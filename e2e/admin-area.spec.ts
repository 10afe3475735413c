import { randomUUID } from 'node:crypto';
import type { Page } from '@playwright/test';
import { expectNoSeriousA11yViolations } from './axe.ts';
import { expect, getJson, loginViaApi, navigate, test, type TestStudent } from './fixtures.ts';

const integer = new Intl.NumberFormat('pt-BR', { maximumFractionDigits: 0 });
const meritus = (value: number) => `${integer.format(value)} M$`;

async function asAdmin(page: Page, path: string): Promise<void> {
  await loginViaApi(page.context(), 'admin');
  await navigate(page, path);
}

/** Opens the add or remove dialog of /admin/estelecas and fills it in for one student. */
async function estelecasDialog(
  page: Page,
  title: 'Adicionar Estelecas' | 'Remover Estelecas',
  student: TestStudent,
  quantity: string,
  description: string,
) {
  await page.getByRole('button', { name: title }).click();
  const dialog = page.getByRole('dialog', { name: title });
  await dialog.getByLabel('Buscar estudante').fill(student.studentId);
  await dialog.getByRole('radio', { name: new RegExp(student.studentId) }).check();
  await dialog.getByLabel('Quantidade').fill(quantity);
  await dialog.getByLabel('Descrição').fill(description);
  return dialog;
}

test.describe('Gerenciar M$', () => {
  test("an award made on /admin/meritus shows on the student's screen at once, without a reload", async ({ browser, page, school }) => {
    const studentContext = await browser.newContext();
    const student = await school.createStudent();
    await loginViaApi(studentContext, student);
    const studentPage = await studentContext.newPage();
    await navigate(studentPage, '/student');
    const balance = studentPage.getByRole('region', { name: 'Seus Méritus' });
    await expect(balance).toContainText(meritus(student.meritus));

    await asAdmin(page, '/admin/meritus');
    await page.getByLabel('Buscar estudante').fill(student.studentId);
    await page.getByRole('checkbox', { name: new RegExp(student.name) }).check();
    await expect(page.getByText(`Selecionado: ${student.name}`)).toBeVisible();
    await page.getByLabel('Valor (M$)').fill('37');
    const description = `Participação ao vivo ${randomUUID().slice(0, 6)}`;
    await page.getByLabel('Descrição').fill(description);
    await page.getByRole('button', { name: 'Adicionar Méritus' }).click();

    await expect(page.getByText(`37 M$ adicionados a ${student.name}`)).toBeVisible();
    await expect(balance).toContainText(meritus(student.meritus + 37));
    // the side panel lists it among the latest operations
    await expect(page.getByText(description)).toBeVisible();
    // the form is ready for the next operation
    await expect(page.getByLabel('Valor (M$)')).toHaveValue('');
    await studentContext.close();
  });

  test("the spec's messages: missing fields, amount, removal beyond the balance", async ({ page }) => {
    await asAdmin(page, '/admin/meritus');
    const submit = page.getByRole('button', { name: 'Adicionar Méritus' });
    await submit.click();
    await expect(page.getByRole('alert')).toHaveText('Preencha todos os campos');

    await page.getByLabel('Buscar estudante').fill('2024002');
    await page.getByRole('checkbox', { name: /2024002/ }).check();
    await page.getByLabel('Valor (M$)').fill('0');
    await page.getByLabel('Descrição').fill('Teste');
    await submit.click();
    await expect(page.getByRole('alert')).toHaveText('O valor deve ser maior que zero');

    await page.getByRole('radio', { name: /Remoção/ }).check();
    await page.getByLabel('Valor (M$)').fill('99999');
    await page.getByRole('button', { name: 'Remover Méritus' }).click();
    await expect(page.getByRole('alert')).toHaveText('Não é possível remover mais Méritus do que o estudante possui');
  });

  test('a whole turma: one confirmation, one request, every student or none', async ({ page }) => {
    await asAdmin(page, '/admin/meritus');
    const turma = '2º EM - Turma C';
    await page.getByLabel('Turma inteira').selectOption(turma);
    await expect(page.getByText(new RegExp(`\\d+ estudantes selecionados — ${turma}`))).toBeVisible();
    const count = Number((await page.getByText(/estudantes selecionados/).textContent())!.match(/\d+/)![0]);

    // a penalty larger than some balance is refused before anything is sent, naming who is short
    await page.getByRole('radio', { name: /Penalidade/ }).check();
    await page.getByLabel('Valor (M$)').fill('5000');
    await page.getByLabel('Descrição').fill('Teste de turma');
    await page.getByRole('button', { name: /Remover Méritus/ }).click();
    await expect(page.getByRole('alert')).toContainText('Não é possível remover mais Méritus do que o estudante possui:');
    await expect(page.getByRole('alert')).toContainText('Nenhum saldo foi alterado.');

    const requests: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().includes('/api/admin/')) requests.push(request.url());
    });
    await page.getByRole('radio', { name: /Recompensa/ }).check();
    await page.getByLabel('Valor (M$)').fill('5');
    await page.getByRole('button', { name: /Adicionar Méritus/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Conceder a vários estudantes?' });
    await expect(dialog).toContainText('Tudo ou nada');
    await dialog.getByRole('button', { name: 'Confirmar' }).click();
    await expect(page.getByText(`5 M$ concedidos a ${count} estudantes`)).toBeVisible();
    expect(requests.filter((url) => url.endsWith('/api/admin/operations/bulk'))).toHaveLength(1);
  });

  test('reason presets: save the description, fill it with one click, remove it', async ({ page }) => {
    await asAdmin(page, '/admin/meritus');
    const label = `Monitoria ${randomUUID().slice(0, 6)}`;
    const descriptionField = page.getByLabel('Descrição');
    await descriptionField.fill(label);
    await page.getByRole('button', { name: 'Salvar motivo' }).click();
    await expect(page.getByText(`Motivo "${label}" salvo`)).toBeVisible();
    await descriptionField.fill('');
    await page.getByRole('button', { name: label }).click();
    await expect(descriptionField).toHaveValue(label);
    await page.getByRole('button', { name: 'Editar' }).click();
    await page.getByRole('button', { name: `Remover motivo ${label}` }).click();
    await expect(page.getByText(`Motivo "${label}" removido`)).toBeVisible();
    await expect(page.getByRole('button', { name: `Remover motivo ${label}` })).toHaveCount(0);
  });
});

test.describe('Estelecas', () => {
  test('add and remove dialogs: required fields, then the operation shows in the history', async ({ page, school }) => {
    const student = await school.createStudent();
    await asAdmin(page, '/admin/estelecas');
    await expect(page.getByRole('heading', { name: 'Top 10 Estelecas' })).toBeVisible();
    await page.getByRole('button', { name: 'Adicionar Estelecas' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Adicionar' }).click();
    await expect(page.getByRole('dialog').getByRole('alert')).toHaveText('Preencha todos os campos');
    // Below the fold of the dialog's scrolling body until brought into view: the click seemed to do nothing.
    await expect(page.getByRole('dialog').getByRole('alert')).toBeInViewport();
    await page.getByRole('dialog').getByRole('button', { name: 'Cancelar' }).click();

    const dialog = await estelecasDialog(page, 'Adicionar Estelecas', student, '0', 'Projeto de excelência');
    await dialog.getByRole('button', { name: 'Adicionar' }).click();
    await expect(dialog.getByRole('alert')).toHaveText('Preencha todos os campos');

    const description = `Olimpíada ${randomUUID().slice(0, 6)}`;
    await dialog.getByLabel('Quantidade').fill('4');
    await dialog.getByLabel('Descrição').fill(description);
    await dialog.getByRole('button', { name: 'Adicionar' }).click();
    await expect(page.getByText(`4 Estelecas adicionadas a ${student.name}`)).toBeVisible();
    await expect(dialog).toHaveCount(0);
    await expect(page.getByText(description)).toBeVisible();

    await page.getByLabel('Buscar no histórico').fill(description);
    await expect(page.getByText(/^1 de \d+ operações/)).toBeVisible();

    // Whether or not the success toast is still up, the header's buttons are clear of it.
    const remove = await estelecasDialog(page, 'Remover Estelecas', student, '5', 'Correção');
    await remove.getByRole('button', { name: 'Remover' }).click();
    await expect(remove.getByRole('alert')).toHaveText('Não é possível remover mais Estelecas do que o estudante possui');
    // A stray Escape after the refusal asks before it throws the filled form away.
    await page.keyboard.press('Escape');
    await remove.getByRole('button', { name: 'Continuar editando' }).click();
    await expect(remove.getByLabel('Descrição')).toHaveValue('Correção');
    await remove.getByLabel('Quantidade').fill('4');
    await remove.getByRole('button', { name: 'Remover' }).click();
    await expect(page.getByText(`4 Estelecas removidas de ${student.name}`)).toBeVisible();
    expect((await school.balances(student)).estelecas).toBe(0);
  });
});

test.describe('Operações em Tempo Real', () => {
  test('a transfer made in another browser appears at once with De, Para and a new-items badge', async ({ browser, page, school }) => {
    const studentContext = await browser.newContext();
    await loginViaApi(studentContext, await school.createStudent());
    const recipient = await school.createStudent();
    await asAdmin(page, '/admin/recent-operations');
    await expect(page.getByText('Ao vivo', { exact: true })).toBeVisible();
    // The cards say what they sum: the listed operations (the demo school has more than the list's 100).
    await expect(page.getByRole('region', { name: 'Resumo das 100 operações mais recentes' })).toBeVisible();
    const description = `Obrigado pela ajuda ${randomUUID().slice(0, 6)}`;
    const response = await studentContext.request.post('/api/meritus/transfers', {
      data: { recipientId: recipient.id, amount: 1, description },
      headers: { 'Idempotency-Key': randomUUID() },
    });
    expect(response.status()).toBe(201);

    const row = page.getByTestId('live-operation').filter({ hasText: description });
    await expect(row).toBeVisible();
    // Other tests' operations may arrive in the same moment, so the badge counts at least this one (for 5 s after the last).
    await expect(page.getByTestId('new-items-badge')).toHaveText(/^\+\d+ novas? operaç/);
    await expect(row).toContainText('Transferência');
    await expect(row).toContainText('De:');
    await expect(row).toContainText(`Para: ${recipient.name}`);
    await expect(row).toContainText('1 M$');
    await expect(row).toContainText('Agora mesmo');

    // a refused attempt shows as failed, with its reason
    const refused = `Tentativa sem saldo ${randomUUID().slice(0, 6)}`;
    const tooMuch = await studentContext.request.post('/api/meritus/transfers', {
      data: { recipientId: recipient.id, amount: 100_000, description: refused },
      headers: { 'Idempotency-Key': randomUUID() },
    });
    expect(tooMuch.status()).toBe(400);
    const failed = page.getByTestId('live-operation').filter({ hasText: refused });
    await expect(failed).toContainText('Falhou');
    await expect(failed).toContainText('Recusada: Saldo insuficiente');
    await studentContext.close();
  });

  test('pause holds the list; resume applies what arrived; filters and search narrow it', async ({ browser, page, school }) => {
    await asAdmin(page, '/admin/recent-operations');
    await expect(page.getByTestId('live-operation').first()).toBeVisible();
    await page.getByRole('button', { name: 'Pausar' }).click();
    await expect(page.getByText('Atualização pausada')).toBeVisible();
    const studentContext = await browser.newContext();
    await loginViaApi(studentContext, await school.createStudent());
    const recipient = await school.createStudent();
    const description = `Durante a pausa ${randomUUID().slice(0, 6)}`;
    // The feed still hears of operations while paused: the status counts what arrived; the list holds still.
    const sent = await studentContext.request.post('/api/meritus/transfers', {
      data: { recipientId: recipient.id, amount: 1, description },
      headers: { 'Idempotency-Key': randomUUID() },
    });
    expect(sent.status()).toBe(201);
    await expect(page.getByRole('status').filter({ hasText: 'Atualização pausada' })).toContainText(/nova(s)? operaç(ão|ões) ao retomar/);
    await expect(page.getByText(description)).toHaveCount(0);
    await page.getByRole('button', { name: 'Retomar' }).click();
    await expect(page.getByText(description)).toBeVisible();

    await page.getByLabel('Buscar operações').fill(description);
    await expect(page.getByTestId('live-operation')).toHaveCount(1);
    await page.getByLabel('Tipo').selectOption('award');
    await expect(page.getByText('Nenhuma operação encontrada')).toBeVisible();
    await page.getByLabel('Tipo').selectOption('student_transfer');
    await page.getByLabel('Operador').selectOption('student');
    await expect(page.getByTestId('live-operation')).toHaveCount(1);
    await expect(page.getByTestId('live-count')).toHaveText(/^1 de \d+ operações$/);
    await studentContext.close();
  });
});

test.describe('every admin screen', () => {
  const screens = ['/admin', '/admin/meritus', '/admin/estelecas', '/admin/recent-operations', '/admin/ranking'];

  test('nothing is shown without a signed-in administrator', async ({ browser }) => {
    const anonymous = await browser.newContext();
    const page = await anonymous.newPage();
    for (const path of screens) {
      await page.goto(path);
      await expect(page).toHaveURL('/login');
    }
    await anonymous.close();
    const studentContext = await browser.newContext();
    await loginViaApi(studentContext, 'student');
    const studentPage = await studentContext.newPage();
    // a student is sent away (through /login, which takes a signed-in student home) and never sees the admin screen
    await studentPage.goto('/admin/meritus');
    await expect(studentPage).toHaveURL('/student');
    await expect(studentPage.getByRole('heading', { name: 'Gerenciar M$' })).toHaveCount(0);
    await studentContext.close();
  });

  test('dashboard: greeting by first name, real figures, quick actions only to existing screens, goals', async ({ page }) => {
    await asAdmin(page, '/admin');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Olá, Administrador!');
    for (const label of ['Total de Estudantes', 'Méritus em Circulação', 'Transações (7 dias)', 'Estudantes Ativos']) {
      await expect(page.getByText(label, { exact: true })).toBeVisible();
    }
    // Other tests add students meanwhile: compared with a fresh answer until they agree.
    await expect(async () => {
      const summary = await getJson<{ totalStudents: { value: number } }>(page, '/api/admin/dashboard');
      await expect(page.getByRole('region', { name: 'Indicadores' })).toContainText(integer.format(summary.totalStudents.value), {
        timeout: 1_000,
      });
    }).toPass({ timeout: 15_000 });
    const actions = page.locator('section', { has: page.getByRole('heading', { name: 'Ações rápidas' }) }).getByRole('link');
    for (const href of await actions.evaluateAll((links) => links.map((link) => link.getAttribute('href')!))) {
      await navigate(page, href);
      await expect(page).toHaveURL(href);
      await navigate(page, '/admin');
    }
    await page.getByRole('button', { name: 'Editar meta Transações na semana' }).click();
    const dialog = page.getByRole('dialog', { name: 'Meta: Transações na semana' });
    await dialog.getByLabel('Meta (operações)').fill('0');
    await dialog.getByRole('button', { name: 'Salvar meta' }).click();
    await expect(dialog.getByRole('alert')).toHaveText('Informe uma meta válida (número inteiro maior que zero)');
    await dialog.getByLabel('Meta (operações)').fill('120');
    await dialog.getByRole('button', { name: 'Salvar meta' }).click();
    await expect(page.getByText('Meta "Transações na semana" atualizada')).toBeVisible();
    await expect(page.getByText(/ de 120$/)).toBeVisible();
  });

  for (const path of screens) {
    test(`no serious or critical accessibility violation on ${path}`, async ({ page }) => {
      test.slow(); // an axe-core scan of a whole screen
      await asAdmin(page, path);
      await page.waitForLoadState('networkidle');
      await expectNoSeriousA11yViolations(page);
    });
  }

  test('no serious or critical accessibility violation on a phone (390×844)', async ({ browser }) => {
    test.slow(); // five axe-core scans
    const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    const page = await phone.newPage();
    await loginViaApi(phone, 'admin');
    for (const path of screens) {
      await navigate(page, path);
      await page.waitForLoadState('networkidle');
      await expectNoSeriousA11yViolations(page);
      // nothing wider than the screen
      expect(await page.evaluate(() => document.documentElement.scrollWidth), path).toBeLessThanOrEqual(390);
    }
    await phone.close();
  });

  // The dialogs alone: the screens behind them have scans of their own above.
  test('no serious or critical accessibility violation in the dialogs', async ({ page }) => {
    test.slow(); // two axe-core scans
    await asAdmin(page, '/admin/estelecas');
    await page.getByRole('button', { name: 'Adicionar Estelecas' }).click();
    await expect(page.getByRole('dialog')).toBeVisible();
    await expectNoSeriousA11yViolations(page, { within: '[role="dialog"]' });
    await navigate(page, '/admin');
    await page.getByRole('button', { name: 'Editar meta Participação' }).click();
    await expect(page.getByRole('dialog')).toBeVisible();
    await expectNoSeriousA11yViolations(page, { within: '[role="dialog"]' });
  });
});
