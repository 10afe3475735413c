import type { APIRequestContext } from '@playwright/test';
import { test, expect, loginViaApi, navigate, getJson, type RankingAnswer, type TestStudent } from './fixtures.ts';
import { expectNoSeriousA11yViolations } from './axe.ts';
import type { SchoolSettings } from '../src/shared/settings.ts';

/*
 * Rankings that protect students (decision 029). The mode is the school's, shared by every test of the run: these
 * run in the school-wide project (playwright.config.ts), one at a time, and each puts the rules back.
 */

const SIZES = [
  { name: 'phone', viewport: { width: 390, height: 844 } },
  { name: 'desktop', viewport: { width: 1440, height: 900 } },
] as const;

/** Where the screenshots a person looks at go (outside the repository). */
const SHOTS = process.env.SHOTS_DIR;

async function withRules(admin: APIRequestContext, change: Partial<SchoolSettings['rules']>, body: () => Promise<void>) {
  const current = await getJson<SchoolSettings>(admin, '/api/settings');
  const saved = await admin.put('/api/admin/settings/rules', { data: { ...current.rules, ...change } });
  expect(saved.status(), await saved.text()).toBe(200);
  try {
    await body();
  } finally {
    const restored = await admin.put('/api/admin/settings/rules', { data: current.rules });
    expect(restored.status(), await restored.text()).toBe(200);
  }
}

for (const size of SIZES) {
  test(`'Anônimo' chosen in Configurações: a student's ranking names classmates 'Estudante N' and them whole (${size.name})`, async ({
    page,
    browser,
    school,
  }) => {
    const student = await school.createStudent({ meritus: 7 });
    const current = await getJson<SchoolSettings>(school.admin, '/api/settings');
    try {
      await page.setViewportSize(size.viewport);
      await loginViaApi(page, 'admin');
      await navigate(page, '/admin/settings');
      await page.getByLabel('Como o ranking mostra os colegas').selectOption({ label: 'Anônimo' });
      await expect(page.getByText('Os estudantes veem “Estudante 12” no lugar dos colegas')).toBeVisible();
      await page.getByRole('button', { name: 'Salvar regras' }).click();
      await expect(page.getByText('Regras salvas').first()).toBeVisible();
      await expectNoSeriousA11yViolations(page);
      if (SHOTS) await page.screenshot({ path: `${SHOTS}/settings-${size.name}.png`, fullPage: true });

      const context = await browser.newContext({ viewport: size.viewport, locale: 'pt-BR', reducedMotion: 'reduce' });
      const studentPage = await context.newPage();
      await loginViaApi(context, student);
      await navigate(studentPage, '/student/ranking');
      const podium = studentPage.getByRole('region', { name: 'Pódio' });
      await expect(podium.getByText('Estudante 1', { exact: true })).toBeVisible();
      await studentPage.getByRole('button', { name: /Ir para minha posição/ }).click();
      await expect(studentPage.getByTestId('my-ranking-row')).toContainText(student.name);
      // The rows of the first page name no classmate: what the staff's ranking says of them never shows.
      const staff = await getJson<RankingAnswer>(school.admin, '/api/ranking?page=0&size=5');
      for (const row of staff.entries) await expect(studentPage.getByText(row.name, { exact: true })).toHaveCount(0);
      await expectNoSeriousA11yViolations(studentPage);
      if (SHOTS) await studentPage.screenshot({ path: `${SHOTS}/ranking-anonymous-${size.name}.png` });

      // The recipient search browses nobody; the exact matrícula finds the classmate.
      const other = await school.createStudent();
      await navigate(studentPage, '/student/transfer');
      await expect(studentPage.getByText('Digite a matrícula exata do colega para encontrá-lo.')).toBeVisible();
      await studentPage.getByLabel('Buscar estudante').first().fill(other.studentId);
      await expect(studentPage.getByText(`Estudante da matrícula ${other.studentId}`).first()).toBeVisible();
      await expect(studentPage.getByText(other.name)).toHaveCount(0);
      await expectNoSeriousA11yViolations(studentPage);
      if (SHOTS) await studentPage.screenshot({ path: `${SHOTS}/transfer-anonymous-${size.name}.png` });
      await context.close();
    } finally {
      await school.admin.put('/api/admin/settings/rules', { data: current.rules });
    }
  });

  test(`'Só vizinhos': the podium, a mark for the rows left out, and the student among their neighbours (${size.name})`, async ({
    page,
    school,
  }) => {
    const student = await school.createStudent({ meritus: 3 });
    await withRules(school.admin, { rankingNames: 'neighbours' }, async () => {
      await page.setViewportSize(size.viewport);
      await loginViaApi(page, student);
      await navigate(page, '/student/ranking');
      const table = page.getByRole('table', { name: 'Ranking: pódio e sua vizinhança' });
      await expect(table.getByTestId('my-ranking-row')).toContainText(student.name);
      await expect(table.getByTestId('ranking-gap').first()).toContainText('outras posições');
      await expect(table.getByTestId('ranking-row').or(table.getByTestId('my-ranking-row'))).toHaveCount(
        (await getJson<RankingAnswer>(page, '/api/ranking?around=me')).total,
      );
      await expectNoSeriousA11yViolations(page);
      if (SHOTS) await page.screenshot({ path: `${SHOTS}/ranking-neighbours-${size.name}.png`, fullPage: true });
    });
  });

  test(`'Não aparecer no ranking' in Meu Perfil takes the student off the classmates' podium, not their own (${size.name})`, async ({
    page,
    browser,
    school,
  }) => {
    // The highest balance one operation gives: on the podium of every classmate while shown.
    const star: TestStudent = await school.createStudent({ meritus: 100_000 });
    const classmate = await school.createStudent();
    await page.setViewportSize(size.viewport);
    await loginViaApi(page, star);
    await navigate(page, '/student/profile');
    const toggle = page.getByRole('switch', { name: 'Não aparecer no ranking' });
    await expect(toggle).toHaveAttribute('aria-checked', 'false');
    await toggle.click();
    await expect(toggle).toHaveAttribute('aria-checked', 'true');
    await expect(page.getByText('Você não aparece no ranking para os colegas').first()).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/profile-hidden-${size.name}.png`, fullPage: true });
    try {
      await navigate(page, '/student/ranking');
      await expect(page.getByRole('region', { name: 'Pódio' }).getByText(star.name)).toBeVisible();

      const context = await browser.newContext({ viewport: size.viewport, locale: 'pt-BR', reducedMotion: 'reduce' });
      const other = await context.newPage();
      await loginViaApi(context, classmate);
      await navigate(other, '/student/ranking');
      await expect(other.getByRole('region', { name: 'Pódio' })).toBeVisible();
      await expect(other.getByText(star.name)).toHaveCount(0);
      await context.close();
    } finally {
      await page.request.put('/api/me/ranking-visibility', { data: { hidden: false } });
    }
  });
}

test('a student filters the ranking by their own turma', async ({ page, school }) => {
  const student = await school.createStudent({ meritus: 5 });
  await page.setViewportSize({ width: 390, height: 844 });
  await loginViaApi(page, student);
  // Full names, whatever the run's earlier tests left: 'Só vizinhos' has no 'Ir para minha posição'.
  await withRules(school.admin, { rankingNames: 'full' }, async () => {
    await navigate(page, '/student/ranking');
    await page.getByRole('radio', { name: 'Minha turma' }).check();
    await page.getByRole('button', { name: /Ir para minha posição/ }).click();
    await expect(page.getByTestId('my-ranking-row')).toBeVisible();
    const turma = await getJson<RankingAnswer>(page, '/api/ranking?around=me');
    expect(turma.ranked).toBeGreaterThan(0);
    await expect(page.getByRole('heading', { name: 'Top Ranking' })).toBeVisible();
    for (const row of (await getJson<RankingAnswer>(school.admin, '/api/ranking?page=0&size=10')).entries.filter(
      (entry) => entry.grade !== student.grade,
    )) {
      await expect(page.getByRole('table', { name: 'Ranking completo' }).getByText(row.name, { exact: true })).toHaveCount(0);
    }
    await expectNoSeriousA11yViolations(page);
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/ranking-turma-phone.png` });
  });
});
