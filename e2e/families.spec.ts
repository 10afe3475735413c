import { randomUUID } from 'node:crypto';
import { expectNoSeriousA11yViolations } from './axe.ts';
import { expect, loginViaApi, navigate, openPersonalData, test, VIEWPORTS, type TestStudent } from './fixtures.ts';
import type { Page } from '@playwright/test';
import { pdfText } from '../src/server/test/pdf-text.ts';

/** Responsáveis (decision 037): the code the coordination makes, the guardian's sign-up, and the family area. */

/** Nothing sticks out sideways: the page does not scroll horizontally. */
async function expectNoSidewaysScroll(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
}

/** The coordination's code for a student, through the student's 'Dados pessoais'. */
async function codeFromDialog(page: Page, student: TestStudent): Promise<string> {
  const dialog = await openPersonalData(page, student);
  await expect(dialog.getByText('Nenhum responsável acompanha este estudante.')).toBeVisible();
  await dialog.getByRole('button', { name: 'Gerar código', exact: true }).click();
  const code = (await dialog.getByTestId('guardian-code').textContent())!.trim();
  expect(code).toMatch(/^[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}$/);
  await expectNoSeriousA11yViolations(page, { within: '[role="dialog"]' });
  return code;
}

for (const viewport of VIEWPORTS) {
  test.describe(`Families at ${viewport.width}×${viewport.height}`, () => {
    test.use({ viewport: { width: viewport.width, height: viewport.height } });

    test('a guardian signs up with the letter’s code and follows the child; the coordination sees them and removes the link', async ({
      page,
      browser,
      school,
    }) => {
      const child = await school.createStudent({ meritus: 40 });
      await school.award(child, 'meritus', 15, 'Ajudou a organizar a feira');
      await loginViaApi(page, 'admin');
      const code = await codeFromDialog(page, child);

      const family = await browser.newContext({ viewport: { width: viewport.width, height: viewport.height } });
      const phone = await family.newPage();
      await phone.goto(`/responsaveis?codigo=${encodeURIComponent(code)}`);
      await expect(phone.getByRole('heading', { name: 'Acesso dos responsáveis' })).toBeVisible();
      await expect(phone.getByLabel('Código da carta')).toHaveValue(code);
      await expectNoSeriousA11yViolations(phone);
      const email = `familia.${randomUUID().slice(0, 8)}@exemplo.test`;
      await phone.getByLabel('Seu nome').fill('Marta Responsável');
      await phone.getByLabel('Email', { exact: true }).fill(email);
      await phone.getByLabel('Senha', { exact: true }).fill('senha-da-familia-1');
      await phone.getByRole('button', { name: 'Criar conta' }).click();

      await expect(phone).toHaveURL(/\/familia$/);
      const card = phone.getByTestId('family-child');
      await expect(card.getByText(child.name, { exact: true })).toBeVisible();
      await expect(card.getByText('Ajudou a organizar a feira')).toBeVisible();
      await expect(card.getByText('Posição no ranking')).toBeVisible();
      await expectNoSeriousA11yViolations(phone);

      // A code used once is refused the second time, with the catalogue's words.
      await phone.getByLabel('Código da carta').fill(code);
      await phone.getByRole('button', { name: 'Adicionar' }).click();
      await expect(phone.getByText('Código inválido ou expirado', { exact: false })).toBeVisible();
      await expectNoSeriousA11yViolations(phone);

      // The coordination sees the guardian on the student's page and removes the link; the family area no longer lists the child.
      const dialog = await openPersonalData(page, child);
      await expect(dialog.getByTestId('student-guardians').getByText('Marta Responsável')).toBeVisible();
      await dialog.getByRole('button', { name: 'Remover Marta Responsável dos responsáveis' }).click();
      await page.getByRole('dialog', { name: 'Remover responsável' }).getByRole('button', { name: 'Remover' }).click();
      await expect(dialog.getByText('Nenhum responsável acompanha este estudante.')).toBeVisible();
      await phone.reload();
      await expect(phone.getByText('Nenhum estudante na sua conta')).toBeVisible();
      await family.close();
    });
  });
}

test('a guardian signs in on the login’s Responsável tab', async ({ page, browser, school }) => {
  const child = await school.createStudent();
  const code = await school.admin.post(`/api/admin/students/${child.id}/guardian-codes`);
  expect(code.status()).toBe(201);
  const email = `familia.${randomUUID().slice(0, 8)}@exemplo.test`;
  const signup = await page.request.post('/api/auth/guardian/signup', {
    data: { code: ((await code.json()) as { code: string }).code, email, name: 'Paulo Responsável', password: 'senha-da-familia-1' },
  });
  expect(signup.status()).toBe(201);
  const fresh = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const phone = await fresh.newPage();
  await phone.goto('/login');
  await phone.getByRole('tab', { name: 'Responsável' }).click();
  // Three tabs fit the card on a phone and on a desktop (the third stuck out of both when it came).
  for (const width of [1440, 390]) {
    await phone.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    const tabs = phone.getByRole('tablist', { name: 'Tipo de acesso' });
    const [list, last] = [await tabs.boundingBox(), await phone.getByRole('tab', { name: 'Responsável' }).boundingBox()];
    expect(last!.x + last!.width, `width ${width}`).toBeLessThanOrEqual(list!.x + list!.width);
    await expectNoSidewaysScroll(phone);
  }
  await phone.getByLabel('Email', { exact: true }).fill(email);
  await phone.getByLabel('Senha', { exact: true }).fill('senha-da-familia-1');
  await phone.getByRole('button', { name: 'Entrar' }).click();
  await expect(phone).toHaveURL(/\/familia$/);
  await expect(phone.getByTestId('family-child').getByText(child.name, { exact: true })).toBeVisible();
  await fresh.close();
});

test('the coordination prints two children’s letters; one family follows both, one card open at a time, at 390×844', async ({
  page,
  browser,
  school,
}) => {
  const first = await school.createStudent({ meritus: 20 });
  const second = await school.createStudent({ meritus: 30 });
  await school.award(second, 'meritus', 5, 'Leu o livro do mês');
  await page.setViewportSize({ width: 390, height: 844 });
  await loginViaApi(page, 'admin');
  await navigate(page, '/admin/students');
  await page.getByRole('button', { name: 'Cartas para responsáveis' }).click();
  const dialog = page.getByRole('dialog', { name: 'Cartas para responsáveis' });
  await dialog.getByRole('radio', { name: 'Alunos escolhidos' }).check();
  for (const student of [first, second]) {
    await dialog.getByLabel('Buscar estudante').fill(student.studentId);
    await dialog.getByRole('checkbox', { name: new RegExp(student.name) }).check();
  }
  await expect(dialog.getByText('2 alunos escolhidos')).toBeVisible();
  await expectNoSeriousA11yViolations(page, { within: '[role="dialog"]' });
  await dialog.getByRole('button', { name: 'Continuar' }).click();
  const confirm = page.getByRole('dialog', { name: 'Gerar cartas para responsáveis' });
  const [download] = await Promise.all([page.waitForEvent('download'), confirm.getByRole('button', { name: 'Gerar PDF' }).click()]);
  const text = await pdfText(Buffer.concat((await (await download.createReadStream()).toArray()) as Buffer[]));
  // Each letter names its student before its code.
  const codeOf = (name: string) => text.slice(text.indexOf(name)).match(/[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}/)?.[0];
  const [firstCode, secondCode] = [codeOf(first.name), codeOf(second.name)];
  expect(firstCode).toBeDefined();
  expect(secondCode).toBeDefined();
  expect(firstCode).not.toBe(secondCode);

  const family = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const signup = await family.request.post('/api/auth/guardian/signup', {
    data: {
      code: firstCode,
      email: `familia.${randomUUID().slice(0, 8)}@exemplo.test`,
      name: 'Rita Responsável',
      password: 'senha-da-familia-1',
    },
  });
  expect(signup.status(), await signup.text()).toBe(201);
  const phone = await family.newPage();
  await navigate(phone, '/familia');
  await phone.getByLabel('Código da carta').fill(secondCode!.toLowerCase());
  await phone.getByRole('button', { name: 'Adicionar' }).click();
  await expect(phone.getByRole('status')).toContainText(`${second.name} foi adicionado(a) à sua conta.`);

  // Two children: both listed, none open until chosen, then one at a time.
  const cards = phone.getByTestId('family-child');
  await expect(cards).toHaveCount(2);
  const toggle = (name: string) => phone.getByRole('button', { name: new RegExp(name) });
  await expect(toggle(first.name)).toHaveAttribute('aria-expanded', 'false');
  await expect(toggle(second.name)).toHaveAttribute('aria-expanded', 'false');
  await toggle(second.name).click();
  await expect(phone.getByText('Leu o livro do mês')).toBeVisible();
  await expect(cards.nth(1).getByText('35 M$', { exact: true })).toBeVisible();
  await expectNoSeriousA11yViolations(phone);
  await expectNoSidewaysScroll(phone);
  await toggle(first.name).click();
  await expect(toggle(first.name)).toHaveAttribute('aria-expanded', 'true');
  await expect(toggle(second.name)).toHaveAttribute('aria-expanded', 'false');
  await expect(phone.getByText('Leu o livro do mês')).toBeHidden();

  // Live: an award to the open child reaches the family's screen without a reload.
  await school.award(first, 'meritus', 7, 'Monitoria de matemática');
  await expect(cards.first().getByText('Monitoria de matemática')).toBeVisible();
  await family.close();
});

test('at 1440×900 the students’ search keeps its width beside the five tools, the letters’ among them', async ({ page }) => {
  await loginViaApi(page, 'admin');
  await navigate(page, '/admin/students');
  await expect(page.getByRole('button', { name: 'Cartas para responsáveis' })).toBeVisible();
  const search = await page.getByLabel('Buscar por nome, matrícula, email ou turma').boundingBox();
  expect(search!.width).toBeGreaterThan(300);
});
