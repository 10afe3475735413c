import { expectNoSeriousA11yViolations } from './axe.ts';
import { expect, loginViaApi, navigate, test } from './fixtures.ts';

/**
 * Issue 38: the reports and the rankings select a school year or period (the demo school's current year and its
 * bimestres, seeded). Nothing is changed here but a fresh student's award, so other tests running alongside do not matter.
 */
for (const size of [
  { name: 'desktop', viewport: { width: 1440, height: 900 } },
  { name: 'phone', viewport: { width: 390, height: 844 } },
]) {
  test(`relatórios by school period and year (${size.name}): the choice lands in the URL, the period is named, the documents follow`, async ({
    page,
  }) => {
    await page.setViewportSize(size.viewport);
    await loginViaApi(page, 'admin');
    await navigate(page, '/admin/reports');
    const period = page.getByLabel('Período', { exact: true });
    await period.selectOption({ label: 'Este bimestre' });
    await expect(page).toHaveURL(/period=atual/);
    const summary = page.getByText(/^\dº bimestre de \d{4}: \d\d\/\d\d\/\d{4} a \d\d\/\d\d\/\d{4}$/);
    await expect(summary).toBeVisible();
    const bimestre = (await summary.innerText()).split(':')[0]!;
    // The bimestre by its own name is the same span, kept by id.
    await period.selectOption({ label: bimestre });
    await expect(page).toHaveURL(/period=[0-9a-f-]{36}/);
    await expect(page.getByText(new RegExp(`^${bimestre}: `))).toBeVisible();
    await page.screenshot({ path: `/tmp/year-filters/reports-bimestre-${size.name}.png`, fullPage: false });

    const yearName = `Ano letivo ${bimestre.slice(-4)}`;
    await period.selectOption({ label: yearName });
    await expect(page).toHaveURL(/year=[0-9a-f-]{36}/);
    await expect(page.getByText(new RegExp(`^${yearName}: `))).toBeVisible();
    await expect(page.getByRole('link', { name: 'Exportar Comparação entre turmas (XLSX)' })).toHaveAttribute('href', /year=[0-9a-f-]{36}/);
    await page.reload();
    await expect(period).toHaveValue(/^ano:/);
    await expect(page.getByText(new RegExp(`^${yearName}: `))).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    await page.screenshot({ path: `/tmp/year-filters/reports-year-${size.name}.png`, fullPage: false });
  });

  test(`the ranking by what was earned this bimestre (${size.name}): a student sees their own earnings placed`, async ({
    page,
    school,
  }) => {
    await page.setViewportSize(size.viewport);
    const student = await school.createStudent({ meritus: 0 });
    await school.award(student, 'meritus', 37, 'Participação');
    await loginViaApi(page, student);
    await navigate(page, '/student/ranking');
    await expect(page.getByRole('heading', { name: 'Top Ranking' })).toBeVisible();
    await page.getByRole('radio', { name: 'Ganhos no bimestre' }).check({ force: true });
    await expect(page.getByText(/estudantes? ordenados? pelos Méritus ganhos no \dº bimestre de \d{4}/)).toBeVisible();
    await expect(page.getByRole('columnheader', { name: 'Ganhos' })).toBeVisible();
    await expect(page.getByRole('button', { name: /Ir para minha posição/ })).toBeVisible();
    await page.screenshot({ path: `/tmp/year-filters/ranking-earned-${size.name}.png`, fullPage: false });
    await page.getByRole('radio', { name: 'Ganhos no ano letivo' }).check({ force: true });
    await expect(page.getByText(/pelos Méritus ganhos no Ano letivo \d{4}/)).toBeVisible();
    await expectNoSeriousA11yViolations(page);

    await loginViaApi(page, 'admin');
    await navigate(page, '/admin/ranking');
    await page.getByRole('radio', { name: 'Ganhos no bimestre' }).check({ force: true });
    await expect(page.getByText(/pelos Méritus ganhos no \dº bimestre de \d{4}/)).toBeVisible();
    await page.getByRole('radio', { name: 'Saldo' }).check({ force: true });
    await expect(page.getByRole('columnheader', { name: 'Méritus' })).toBeVisible();
    await page.screenshot({ path: `/tmp/year-filters/ranking-admin-${size.name}.png`, fullPage: false });
  });

  test(`the dashboard by school period and year (${size.name}): the same choices as the reports, kept in the URL, the figures named`, async ({
    page,
  }) => {
    await page.setViewportSize(size.viewport);
    await loginViaApi(page, 'admin');
    await navigate(page, '/admin');
    const period = page.getByLabel('Período', { exact: true });
    await expect(period).toHaveValue('');
    await expect(page.getByText(/^Últimos 7 dias: /)).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Atividade semanal' })).toBeVisible();

    await period.selectOption({ label: 'Este bimestre' });
    await expect(page).toHaveURL(/period=atual/);
    const summary = page.getByText(/^\dº bimestre de \d{4}: \d\d\/\d\d\/\d{4} a \d\d\/\d\d\/\d{4}$/);
    await expect(summary).toBeVisible();
    await expect(page.getByText('Transações no período')).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Atividade no período' })).toBeVisible();
    await expect(page.getByText('Loja no período')).toBeVisible();
    const bimestre = (await summary.innerText()).split(':')[0]!;
    await page.screenshot({ path: `/tmp/year-filters/dashboard-bimestre-${size.name}.png`, fullPage: true });

    const yearName = `Ano letivo ${bimestre.slice(-4)}`;
    await period.selectOption({ label: yearName });
    await expect(page).toHaveURL(/year=[0-9a-f-]{36}/);
    await expect(page.getByText(new RegExp(`^${yearName}: `))).toBeVisible();
    await page.reload();
    await expect(period).toHaveValue(/^ano:/);
    await expect(page.getByText(new RegExp(`^${yearName}: `))).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    await page.screenshot({ path: `/tmp/year-filters/dashboard-year-${size.name}.png`, fullPage: true });

    await period.selectOption({ label: 'Últimos 7 dias' });
    await expect(page.getByText('Transações (7 dias)')).toBeVisible();
    await expect(page).not.toHaveURL(/period=|year=/);
  });
}
