import type { Locator, Page } from '@playwright/test';
import { test, expect, loginViaApi, navigate } from './fixtures.ts';
import { expectNoSeriousA11yViolations } from './axe.ts';

/** Nothing in the locator is cut: no box wider than the space it has, and the page does not scroll sideways. */
async function expectNothingCut(page: Page, within: Locator) {
  const cut = await within.evaluate((root) =>
    [root, ...root.querySelectorAll<HTMLElement>('*')]
      .filter((element) => element.scrollWidth > element.clientWidth + 1 && getComputedStyle(element).overflowX !== 'auto')
      .map((element) => element.textContent?.slice(0, 60)),
  );
  expect(cut).toEqual([]);
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
}

for (const size of [
  { name: 'desktop', viewport: { width: 1440, height: 900 } },
  { name: 'phone', viewport: { width: 390, height: 844 } },
]) {
  test(`Equipe (${size.name}): a new teacher signs in with the password shown once; deactivated, their session ends at once`, async ({
    page,
    browser,
  }) => {
    await page.setViewportSize(size.viewport);
    const name = `Profª Conceição ${size.name === 'phone' ? 'Móvel' : 'Araújo'} ${Date.now().toString(36)}`;
    const email = `prof.${size.name}.${Date.now()}@escola.test`;
    await loginViaApi(page, 'admin');
    await navigate(page, '/admin/settings');
    const team = page.getByRole('list', { name: 'Equipe' });
    await expect(team.getByText('admin@escola.com')).toBeVisible();

    await page.getByRole('button', { name: 'Adicionar membro' }).click();
    const dialog = page.getByRole('dialog', { name: 'Adicionar membro da equipe' });
    await dialog.getByLabel('Nome').fill(name);
    await dialog.getByLabel('Email').fill(email);
    await expect(dialog.getByLabel('Papel')).toHaveValue('teacher');
    await dialog.getByRole('checkbox', { name: '1º EM - Turma A' }).check();
    await expectNoSeriousA11yViolations(page, { within: '[role="dialog"]' });
    await dialog.getByRole('button', { name: 'Adicionar' }).click();
    await expect(dialog).toHaveCount(0);
    await expect(page.getByText(`Senha de ${name}: entregue-a à pessoa; ela não será mostrada novamente.`)).toBeVisible();
    const password = (await page.getByTestId('staff-password').textContent())!;

    const row = team.getByRole('listitem').filter({ hasText: email });
    await expect(row).toContainText('Professor');
    await expect(row).toContainText('Turmas: 1º EM - Turma A');
    await expect(row).toContainText('Último acesso: nunca');
    await expectNothingCut(page, team);
    await expectNoSeriousA11yViolations(page);

    // The teacher signs in elsewhere with the password shown.
    const elsewhere = await browser.newContext();
    try {
      const signIn = await elsewhere.request.post('/api/auth/admin/login', { data: { email, password } });
      expect(signIn.status()).toBe(200);
      expect((await signIn.json()).role).toBe('teacher');
      expect((await elsewhere.request.get('/api/auth/me')).status()).toBe(200);

      await page.getByRole('button', { name: `Desativar ${name}` }).click();
      const confirm = page.getByRole('dialog', { name: 'Desativar membro da equipe' });
      await expect(confirm).toContainText('As sessões abertas são encerradas na hora');
      await confirm.getByRole('button', { name: 'Desativar' }).click();
      await expect(row).toContainText('Desativado');
      await expect(page.getByRole('button', { name: `Reativar ${name}` })).toBeVisible();
      await expectNothingCut(page, team);

      expect((await elsewhere.request.get('/api/auth/me')).status()).toBe(401);
      const again = await elsewhere.request.post('/api/auth/admin/login', { data: { email, password } });
      expect(again.status()).toBe(401);
    } finally {
      await elsewhere.close();
    }
  });
}
