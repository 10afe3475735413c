import { expectNoSeriousA11yViolations } from './axe.ts';
import { expect, loginViaApi, navigate, test } from './fixtures.ts';

/** The Loja in the reports and on the staff dashboard, with the demo school's catalogue and orders; desktop and phone. */

for (const viewport of [
  { name: 'desktop', width: 1440, height: 900 },
  { name: 'phone', width: 390, height: 844 },
]) {
  test(`${viewport.name}: the dashboard's Loja card and the reports' Loja section show the demo school's spending`, async ({ page }) => {
    await page.setViewportSize(viewport);
    await loginViaApi(page, 'admin');
    await navigate(page, '/admin');
    const card = page.locator('section', { has: page.getByRole('heading', { name: 'Loja (7 dias)', exact: true }) });
    await expect(card).toContainText('Gastos na Loja');
    await expect(card).toContainText('Pedidos pendentes');
    await expect(card.getByRole('listitem').first()).toBeVisible();
    await card.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `test-results/store-dashboard-${viewport.name}.png`, fullPage: true });
    await expectNoSeriousA11yViolations(page);

    await navigate(page, '/admin/reports');
    const section = page.locator('section', { has: page.getByRole('heading', { name: 'Loja', exact: true }) });
    await expect(section).toContainText('Concedidos × gastos na Loja');
    await expect(section.getByRole('row', { name: /Sentar onde quiser por um dia/ })).toBeVisible();
    await expect(page.getByTestId('figure-meritusSpent')).toContainText('M$');
    await section.scrollIntoViewIfNeeded();
    await section.screenshot({ path: `test-results/store-reports-${viewport.name}.png` });
    await expectNoSeriousA11yViolations(page);
  });
}
