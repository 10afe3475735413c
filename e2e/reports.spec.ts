import { expectNoSeriousA11yViolations } from './axe.ts';
import { expect, loginViaApi, navigate, test, TEST_GRADE } from './fixtures.ts';

/** /admin/reports: filters kept in the URL, figures, charts with their tables, documents; desktop and phone. */

test('desktop: the dashboard leads to the reports; a custom period and a turma land in the URL and survive a reload', async ({ page }) => {
  await loginViaApi(page, 'admin');
  await navigate(page, '/admin');
  // The quick action (the sidebar lists Relatórios too).
  await page
    .locator('section', { has: page.getByRole('heading', { name: 'Ações rápidas' }) })
    .getByRole('link', { name: /Relatórios/ })
    .click();
  await expect(page.getByRole('heading', { name: 'Relatórios', level: 1 })).toBeVisible();
  await expect(page.getByText(/\(30 dias\) · comparado com/)).toBeVisible();
  // A change between two percentages is in percentage points, never in percent of a percent.
  await expect(page.getByTestId('figure-participation')).toContainText(
    /[+−][\d,]+ p\.p\. vs\. período anterior \([\d,]+%\)|Igual ao período anterior/,
  );

  await page.getByLabel('Período', { exact: true }).selectOption('custom');
  await page.getByLabel('De', { exact: true }).fill('2026-03-02');
  await page.getByLabel('Até', { exact: true }).fill('2026-03-15');
  // The turma is ticked at once, before the router renders the new dates: both changes land in the address.
  await page.locator('summary', { hasText: 'Todas as turmas' }).click();
  await page.getByLabel(TEST_GRADE, { exact: true }).check();
  await expect(page).toHaveURL(/period=custom&from=2026-03-02&to=2026-03-15&turma=1%C2%BA\+EM\+-\+Turma\+B/);
  await expect(page.getByText('02/03/2026 a 15/03/2026', { exact: true })).toBeVisible();

  await page.reload();
  await expect(page.getByLabel('Período', { exact: true })).toHaveValue('custom');
  await expect(page.getByLabel('De', { exact: true })).toHaveValue('2026-03-02');
  await expect(page.locator('summary')).toContainText(TEST_GRADE);
  await expect(page.getByText('02/03/2026 a 15/03/2026 (14 dias) · comparado com 16/02/2026 a 01/03/2026')).toBeVisible();
  // One row per day of the period, and the one turma chosen in the turma table.
  await expect(page.getByRole('table', { name: /por dia/ }).locator('tbody tr')).toHaveCount(14);
  await expect(page.getByRole('table', { name: /por turma/ }).locator('tbody tr')).toHaveCount(1);
  await expect(page.getByRole('link', { name: 'Exportar Comparação entre turmas (XLSX)' })).toHaveAttribute(
    'href',
    /table=turmas&format=xlsx/,
  );
  await expectNoSeriousA11yViolations(page);
});

test.describe('phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test('a student awarded today leads the risers and gets an extrato; a refused period says why', async ({ page, school }) => {
    // A balance above what other tests give their students, so this one leads the day's risers.
    const student = await school.createStudent({ meritus: 50_000 });
    await loginViaApi(page, 'admin');
    await navigate(page, `/admin/reports?period=today&turma=${encodeURIComponent(TEST_GRADE)}`);
    await expect(page.getByRole('table', { name: /mais subiram/ })).toContainText(student.name);

    await page.getByLabel('Buscar estudante').fill(student.studentId);
    await page.getByRole('radio', { name: new RegExp(student.name) }).check();
    await expect(page.getByRole('link', { name: `Baixar extrato de ${student.name}` })).toHaveAttribute(
      'href',
      new RegExp(`period=today&student=${student.id}`),
    );
    await expectNoSeriousA11yViolations(page);

    // Choosing 'Personalizado' after a report was shown: no figures until both dates are there, not the last period's.
    await page.getByLabel('Período', { exact: true }).selectOption('custom');
    await expect(page.getByRole('alert')).toBeVisible();
    await expect(page.getByText('O relatório aparece assim que o período for válido.')).toBeVisible();
    await expect(page.getByRole('table', { name: /mais subiram/ })).toHaveCount(0);
    await expect(page.getByText(/comparado com/)).toHaveCount(0);

    await navigate(page, '/admin/reports?period=custom&from=2026-03-10&to=2026-03-01');
    await expect(page.getByRole('alert')).toContainText('A data de início deve ser anterior ou igual à data de fim');
    // Beside the dates, not a failed load: no retry that could never work.
    await expect(page.getByRole('button', { name: 'Tentar novamente' })).toHaveCount(0);
    await expect(page.getByText('O relatório aparece assim que o período for válido.')).toBeVisible();
  });
});
