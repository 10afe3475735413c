import { randomUUID } from 'node:crypto';
import { expectNoSeriousA11yViolations } from './axe.ts';
import { expect, loginViaApi, navigate, test, type TestStudent } from './fixtures.ts';
import type { Page } from '@playwright/test';

/** Responsáveis (decision 037): the code the coordination makes, the guardian's sign-up, and the family area. */

const VIEWPORTS = [
  { name: 'phone', width: 390, height: 844 },
  { name: 'desktop', width: 1440, height: 900 },
] as const;

async function openPersonalData(page: Page, student: TestStudent) {
  await navigate(page, '/admin/students');
  await page.getByLabel('Buscar por nome, matrícula, email ou turma').fill(student.studentId);
  await page.getByRole('button', { name: `Dados pessoais de ${student.name}` }).click();
  const dialog = page.getByRole('dialog', { name: 'Dados pessoais' });
  await expect(dialog).toBeVisible();
  return dialog;
}

/** The coordination's code for a student, through the student's 'Dados pessoais'. */
async function codeFromDialog(page: Page, student: TestStudent): Promise<string> {
  const dialog = await openPersonalData(page, student);
  await expect(dialog.getByText('Nenhum responsável acompanha este estudante.')).toBeVisible();
  await dialog.getByRole('button', { name: 'Gerar código para responsáveis' }).click();
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
      await expect(card.getByText(child.name)).toBeVisible();
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
  await phone.getByLabel('Email', { exact: true }).fill(email);
  await phone.getByLabel('Senha', { exact: true }).fill('senha-da-familia-1');
  await phone.getByRole('button', { name: 'Entrar' }).click();
  await expect(phone).toHaveURL(/\/familia$/);
  await expect(phone.getByTestId('family-child').getByText(child.name)).toBeVisible();
  await fresh.close();
});
