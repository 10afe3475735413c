import type { Page } from '@playwright/test';
import { test, expect, getJson, loginViaApi, navigate, type School, type TestStudent } from './fixtures.ts';
import { expectNoSeriousA11yViolations } from './axe.ts';
import type { HallOfFame } from '../src/shared/hall-of-fame.ts';

/*
 * The Hall da Fama (issue 38, decision 035). Closing a year moves every student of the demo school, so these tests run in
 * their own project after all the others (playwright.config.ts), one at a time, in this file's order: the first sees the
 * Hall before any year closed and closes the demo school's year; the others read what it kept.
 */

const SIZES = [
  { name: 'desktop', viewport: { width: 1440, height: 900 } },
  { name: 'phone', viewport: { width: 390, height: 844 } },
] as const;

/** Opens a screen from the sidebar (on a phone, from its menu), as a person would. */
async function openFromSidebar(page: Page, label: string): Promise<void> {
  const menu = page.getByRole('button', { name: 'Abrir menu' });
  if (await menu.isVisible()) await menu.click();
  await page.getByRole('navigation', { name: 'Menu principal' }).getByRole('link', { name: label }).click();
}

/** A student with far more Méritus earned than anyone, in a turma the rollover moves to the next one (not graduating). */
let champion: TestStudent | undefined;

async function closeTheYear(school: School): Promise<void> {
  champion = await school.createStudent({ grade: '1º EM - Turma B', meritus: 0 });
  // Twice the most one operation may give.
  await school.award(champion, 'meritus', 100_000, 'Destaque do ano');
  await school.award(champion, 'meritus', 100_000, 'Destaque do ano');
  const body = { balances: { meritus: 'keep', estelecas: 'keep' } };
  const preview = await school.admin.post('/api/admin/rollover/preview', { data: body });
  expect(preview.status(), await preview.text()).toBe(200);
  const { token } = (await preview.json()) as { token: string };
  const applied = await school.admin.post('/api/admin/rollover/apply', { data: { ...body, token } });
  expect(applied.status(), await applied.text()).toBe(200);
}

test('before a year closes the Hall da Fama says how it starts, in both areas and sizes; then the year closes', async ({
  page,
  school,
}) => {
  for (const size of SIZES) {
    await page.setViewportSize(size.viewport);
    for (const role of ['student', 'admin'] as const) {
      await page.context().clearCookies();
      await loginViaApi(page, role);
      await navigate(page, role === 'student' ? '/student' : '/admin');
      await openFromSidebar(page, 'Hall da Fama');
      await expect(page.getByRole('heading', { name: 'Hall da Fama', level: 1 })).toBeVisible();
      await expect(page.getByText('O Hall da Fama começa quando o primeiro ano letivo for encerrado.')).toBeVisible();
      await expectNoSeriousA11yViolations(page);
      await page.screenshot({ path: `/tmp/hall-of-fame/empty-${role}-${size.name}.png` });
    }
  }
  await closeTheYear(school);
});

for (const size of SIZES) {
  test(`the staff see the closed year's honours with every name, and download a certificate (${size.name})`, async ({ page }) => {
    test.skip(!champion, 'the first test closes the year');
    await page.setViewportSize(size.viewport);
    await loginViaApi(page, 'admin');
    await navigate(page, '/admin');
    await openFromSidebar(page, 'Hall da Fama');
    const meritus = page.getByRole('region', { name: 'Mais Méritus ganhos' });
    await expect(meritus.getByTestId('honour').first()).toContainText(champion!.name);
    await expect(meritus.getByTestId('honour').first()).toContainText('200.000 M$');
    await expect(page.getByRole('region', { name: 'Destaque de cada turma' }).getByText('1º EM - Turma B').first()).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    await page.screenshot({ path: `/tmp/hall-of-fame/admin-${size.name}.png`, fullPage: true });

    const download = page.waitForEvent('download');
    await meritus.getByRole('link', { name: `Baixar certificado de ${champion!.name}: 1º lugar, Mais Méritus ganhos` }).click();
    expect((await download).suggestedFilename()).toMatch(/^certificado-hall-da-fama-.*\.pdf$/);
  });

  test(`a student sees themself marked and downloads their own certificate, not others' (${size.name})`, async ({ page }) => {
    test.skip(!champion, 'the first test closes the year');
    await page.setViewportSize(size.viewport);
    await loginViaApi(page, champion!);
    await navigate(page, '/student');
    await openFromSidebar(page, 'Hall da Fama');
    const mine = page.getByRole('region', { name: 'Mais Méritus ganhos' }).getByTestId('honour').first();
    await expect(mine).toContainText(champion!.name);
    await expect(mine).toContainText('Você');
    await expect(mine.getByRole('link', { name: /^Baixar certificado de/ })).toBeVisible();
    const hall = await getJson<HallOfFame>(page, '/api/hall-of-fame');
    const others = hall.categories.flatMap((entry) => entry.honours).filter((honour) => honour.student && !honour.self);
    expect(others.length).toBeGreaterThan(0);
    expect(others.every((honour) => !honour.certificate)).toBe(true);
    expect((await page.request.get(`/api/hall-of-fame/honours/${others[0]!.id}/certificate.pdf`)).status()).toBe(403);
    await expectNoSeriousA11yViolations(page);
    await page.screenshot({ path: `/tmp/hall-of-fame/student-${size.name}.png`, fullPage: true });
  });
}
