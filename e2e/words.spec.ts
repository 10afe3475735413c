import { randomUUID } from 'node:crypto';
import type { Locator, Page } from '@playwright/test';
import { expect, loginViaApi, navigate, TEST_GRADE, test } from './fixtures.ts';

/** Issue 36, "Order and words that fit Portuguese": names in Portuguese order, long emails wrapped where a reader expects. */

const SIZES = [
  { width: 390, height: 844 },
  { width: 1440, height: 900 },
] as const;

/** Where a text's lines end: the character before each wrap, read from where the browser laid each character out. */
async function charactersBeforeWraps(element: Locator): Promise<string[]> {
  return element.evaluate((node) => {
    const characters: { character: string; top: number }[] = [];
    const walker = document.createTreeWalker(node, NodeFilter.SHOW_TEXT);
    for (let text = walker.nextNode(); text; text = walker.nextNode()) {
      for (let index = 0; index < text.textContent!.length; index++) {
        const range = document.createRange();
        range.setStart(text, index);
        range.setEnd(text, index + 1);
        characters.push({ character: text.textContent![index]!, top: range.getBoundingClientRect().top });
      }
    }
    return characters.flatMap((entry, index) =>
      index > 0 && entry.top > characters[index - 1]!.top + 2 ? [characters[index - 1]!.character] : [],
    );
  });
}

/**
 * The email wraps (it is longer than its line) only after an '@', a dot or the hyphen between two words of a domain,
 * never inside a word, and the page does not scroll sideways.
 */
async function expectWrappedAtDots(page: Page, email: Locator, size: { width: number }): Promise<void> {
  await expect(email).toBeVisible();
  const wraps = await charactersBeforeWraps(email);
  if (size.width === 390) expect(wraps.length).toBeGreaterThan(0);
  for (const character of wraps) expect(['@', '.', '-']).toContain(character);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(size.width);
}

const longEmail = (token: string) => `maria.eduarda.goncalves${token}@colegio-estadual-professor-joaquim.sp.gov.br`;

for (const size of SIZES) {
  test.describe(`at ${size.width}×${size.height}`, () => {
    test.use({ viewport: size });

    test('a long email wraps after its @ and dots on the students screen, the profile and the staff list', async ({
      page,
      school,
    }, info) => {
      const token = randomUUID().slice(0, 6);
      const email = longEmail(token);
      const student = await school.createStudent({ email });
      const staffEmail = `coordenacao.pedagogica${token}@colegio-estadual-professor-joaquim.sp.gov.br`;
      const response = await school.admin.post('/api/admin/staff', {
        data: { name: `Rosa Emails ${token}`, email: staffEmail, role: 'teacher', turmaIds: [] },
      });
      expect(response.status(), await response.text()).toBe(201);

      await loginViaApi(page.context(), 'admin');
      await navigate(page, '/admin/students');
      await page.getByRole('searchbox').fill(student.studentId);
      await expect(page.getByText(student.name, { exact: true })).toHaveCount(1);
      await expectWrappedAtDots(page, page.getByText(email, { exact: true }).first(), size);
      await page.screenshot({ path: info.outputPath(`students-${size.width}.png`) });

      await navigate(page, '/admin/settings');
      const staffLine = page.getByRole('list', { name: 'Equipe' }).getByText(staffEmail, { exact: true });
      await staffLine.scrollIntoViewIfNeeded();
      await expectWrappedAtDots(page, staffLine, size);
      await page.screenshot({ path: info.outputPath(`staff-${size.width}.png`) });

      await page.context().clearCookies();
      await loginViaApi(page.context(), student);
      await navigate(page, '/student/profile');
      // The student's class is a turma on every screen (decision 027), here too.
      await expect(page.getByText('Turma', { exact: true })).toBeVisible();
      await expectWrappedAtDots(page, page.getByText(email, { exact: true }), size);
      await page.screenshot({ path: info.outputPath(`profile-${size.width}.png`) });
    });
  });
}

test('the students screen lists accented names among their letters, as a Brazilian reader expects', async ({ page, school }, info) => {
  const token = randomUUID()
    .replace(/[^a-f]/g, '')
    .slice(0, 6);
  const surname = `Ordem${token}`;
  const names = ['Ângelo', 'Érica', 'Ícaro', 'Ísis', 'Ítalo', 'Lívia', 'Luís', 'Vitória'].map((first) => `${first} ${surname}`);
  for (const name of ['Vitória', 'Ítalo', 'Luís', 'Ísis', 'Lívia', 'Érica', 'Ícaro', 'Ângelo']) {
    const response = await school.admin.post('/api/admin/students', {
      data: {
        studentId: `7${randomUUID().replace(/\D/g, '').slice(0, 8)}`,
        name: `${name} ${surname}`,
        password: 'senha-ordem',
        grade: TEST_GRADE,
      },
    });
    expect(response.status(), await response.text()).toBe(201);
  }
  await loginViaApi(page.context(), 'admin');
  await navigate(page, '/admin/students');
  await page.getByRole('searchbox').fill(surname);
  await expect(page.getByText(new RegExp(` ${surname}$`))).toHaveText(names);
  await page.screenshot({ path: info.outputPath('order-1440.png') });
});
