import { randomUUID } from 'node:crypto';
import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expectNoSeriousA11yViolations } from './axe.ts';
import { expect, getJson, loginViaApi, navigate, TEST_GRADE, test, type School, type TestStudent } from './fixtures.ts';

/** What a user sees on a phone and on a desktop: whole names and labels, toasts clear of actions, counts that agree. */

const SIZES = [
  { width: 1440, height: 900 },
  { width: 390, height: 844 },
] as const;

const SCREENS = {
  student: [
    '/student',
    '/student/profile',
    '/student/transfer',
    '/student/estelecas',
    '/student/loja',
    '/student/ranking',
    '/student/recent-operations',
  ],
  admin: [
    '/admin',
    '/admin/students',
    '/admin/meritus',
    '/admin/estelecas',
    '/admin/ranking',
    '/admin/recent-operations',
    '/admin/database',
  ],
} as const;

/**
 * A student whose name is long enough to be cut anywhere a name is cut, and whose first word is wider than a phone
 * (71 letters without a space: it must wrap, not widen its card or the page), set up through the API.
 */
async function longNamedStudent(school: School): Promise<TestStudent> {
  const token = randomUUID().replace(/-/g, '');
  const studentId = `8${String(parseInt(token.slice(0, 12), 16)).slice(-8)}`;
  const name = `${'Albuquerque'.repeat(6)}${token.slice(0, 5).toUpperCase()} Maria Eduarda Conceição dos Santos`;
  const password = `senha-${token.slice(0, 8)}`;
  const response = await school.admin.post('/api/admin/students', { data: { studentId, name, password, grade: TEST_GRADE, meritus: 100 } });
  expect(response.status(), await response.text()).toBe(201);
  const { student } = (await response.json()) as { student: { id: string } };
  return { id: student.id, studentId, name, grade: TEST_GRADE, password, meritus: 100, estelecas: 0 };
}

/**
 * Texts the screen cuts (an ellipsis or a clamped line), buttons and links whose label does not fit their box or
 * that leave the screen, and whether the page scrolls sideways.
 */
function cutOnScreen(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const shown = (element: Element) => element.getBoundingClientRect().width > 1 && !element.closest('.sr-only');
    const cut: string[] = [];
    for (const element of document.querySelectorAll<HTMLElement>('body *')) {
      if (!element.textContent?.trim() || !shown(element)) continue;
      const style = getComputedStyle(element);
      const ellipsis = style.textOverflow === 'ellipsis' && element.scrollWidth > element.clientWidth + 1;
      const clamped = style.webkitLineClamp !== 'none' && element.scrollHeight > element.clientHeight + 1;
      if (ellipsis || clamped) cut.push(`texto cortado: ${element.textContent.trim()}`);
    }
    for (const control of document.querySelectorAll<HTMLElement>('button, a[href]')) {
      if (!shown(control)) continue;
      const box = control.getBoundingClientRect();
      const label = control.textContent?.trim() || control.getAttribute('aria-label');
      if (control.scrollWidth > control.clientWidth + 1) cut.push(`rótulo maior que o botão: ${label}`);
      if (box.left < -0.5 || box.right > window.innerWidth + 0.5) cut.push(`botão fora da tela: ${label}`);
    }
    if (document.documentElement.scrollWidth > window.innerWidth)
      cut.push(`página rola para o lado: ${document.documentElement.scrollWidth}px`);
    return cut;
  });
}

/**
 * The buttons and links under the toast with this text, where it rests (its slot, leaving out its slide-in), that a user
 * would see and reach there without it: it lives 3 s, so measured at once.
 */
async function underToast(page: Page, text: string): Promise<string[]> {
  const toast = page.locator('[data-rht-toaster] [role="status"]').filter({ hasText: text });
  await expect(toast).toBeVisible();
  return toast.evaluate((message) => {
    const bar = message.parentElement as HTMLElement;
    const slot = bar.parentElement!.getBoundingClientRect();
    const box = { left: slot.right - bar.offsetWidth, right: slot.right, top: slot.top, bottom: slot.top + bar.offsetHeight };
    return [...document.querySelectorAll('button, a[href]')]
      .filter((element) => {
        const other = element.getBoundingClientRect();
        const visible =
          other.width > 1 &&
          other.height > 1 &&
          getComputedStyle(element).visibility !== 'hidden' &&
          !element.closest('[data-rht-toaster]');
        if (!(visible && box.left < other.right && other.left < box.right && box.top < other.bottom && other.top < box.bottom))
          return false;
        // Covered only if, toast aside, the button is what lies there (not a button scrolled away under a sticky bar).
        const x = (Math.max(box.left, other.left) + Math.min(box.right, other.right)) / 2;
        const y = (Math.max(box.top, other.top) + Math.min(box.bottom, other.bottom)) / 2;
        const beneath = document.elementsFromPoint(x, y).find((hit) => !hit.closest('[data-rht-toaster]'));
        return beneath !== undefined && element.contains(beneath);
      })
      .map((element) => element.textContent?.trim() || element.getAttribute('aria-label') || element.tagName);
  });
}

/** Violations of axe's label-content-name-mismatch (an experimental rule, so asked for by name). */
async function nameMismatches(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).withRules(['label-content-name-mismatch']).analyze();
  return results.violations.flatMap((violation) => violation.nodes.map((node) => node.html));
}

for (const size of SIZES) {
  const phone = size.width < 500;
  test.describe(`${size.width}×${size.height}`, () => {
    test.use({ viewport: size, isMobile: phone, hasTouch: phone });

    test('every screen shows whole names and whole button labels', async ({ page, context, school }) => {
      test.slow(); // thirteen screens
      const student = await longNamedStudent(school);
      await loginViaApi(context, student);
      for (const path of SCREENS.student) {
        await navigate(page, path);
        await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
        expect(await cutOnScreen(page), path).toEqual([]);
      }

      await loginViaApi(context, 'admin');
      for (const path of SCREENS.admin) {
        await navigate(page, path);
        await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
        if (path === '/admin/meritus') {
          await page.getByLabel('Buscar estudante').fill(student.studentId);
          await expect(page.getByText(student.name, { exact: true }).first()).toBeVisible();
        }
        if (path === '/admin/students') {
          await page.getByLabel('Buscar por nome, matrícula, email ou turma').fill(student.studentId);
          await expect(page.getByText(student.name, { exact: true }).first()).toBeVisible();
        }
        if (path === '/admin/database')
          await expect(page.getByRole('list', { name: 'Arquivos' }).getByRole('listitem').first()).toBeVisible();
        expect(await cutOnScreen(page), path).toEqual([]);
      }
    });

    test("a toast rests where it covers none of the screen's buttons", async ({ page, context, school }) => {
      test.slow(); // five operations, each with its toast
      await page.emulateMedia({ reducedMotion: 'no-preference' }); // toasts slide in and out as most users see them
      const [sender, recipient, removed] = await Promise.all([
        school.createStudent({ estelecas: 3 }),
        school.createStudent(),
        school.createStudent(),
      ]);

      await loginViaApi(context, sender);
      await navigate(page, '/student/profile');
      await page.getByRole('button', { name: 'Atualizar' }).click();
      expect(await underToast(page, 'Perfil atualizado'), '/student/profile').toEqual([]);

      await navigate(page, '/student/estelecas');
      await page.getByRole('button', { name: 'Transferir Estelecas' }).click();
      const transfer = page.getByRole('dialog', { name: 'Transferir Estelecas' });
      await transfer.getByRole('searchbox', { name: 'Buscar estudante' }).fill(recipient.studentId);
      await transfer.getByRole('radio', { name: new RegExp(recipient.name) }).check();
      await transfer.getByLabel('Quantidade').fill('1');
      await transfer.getByRole('button', { name: 'Transferir' }).click();
      await page.getByRole('button', { name: 'Confirmar transferência' }).click();
      await expect(page.getByTestId('receipt')).toBeVisible();
      expect(await underToast(page, `1 Esteleca transferida para ${recipient.name}`), '/student/comprovante').toEqual([]);

      await loginViaApi(context, 'admin');
      await navigate(page, '/admin/estelecas');
      await page.getByRole('button', { name: 'Adicionar Estelecas' }).click();
      const award = page.getByRole('dialog', { name: 'Adicionar Estelecas' });
      await award.getByLabel('Buscar estudante').fill(recipient.studentId);
      await award.getByRole('radio', { name: new RegExp(recipient.studentId) }).check();
      await award.getByLabel('Quantidade').fill('1');
      await award.getByLabel('Descrição').fill('Toast e botões');
      await award.getByRole('button', { name: 'Adicionar' }).click();
      await expect(award).toHaveCount(0);
      expect(await underToast(page, `1 Esteleca adicionada a ${recipient.name}`), '/admin/estelecas').toEqual([]);

      await navigate(page, '/admin/students');
      await page.getByLabel('Buscar por nome, matrícula, email ou turma').fill(removed.studentId);
      await page.getByRole('button', { name: `Excluir ${removed.name}` }).click();
      await page.getByRole('dialog', { name: 'Excluir estudante' }).getByRole('button', { name: 'Excluir' }).click();
      await expect(page.getByRole('dialog', { name: 'Excluir estudante' })).toHaveCount(0);
      expect(await underToast(page, removed.name), '/admin/students').toEqual([]);

      await navigate(page, '/admin/database');
      const card = page.getByRole('list', { name: 'Arquivos' }).getByRole('listitem').first();
      const fileName = (await card.getByRole('heading').first().textContent())!.trim();
      await card.getByRole('button', { name: `Baixar ${fileName}` }).click();
      expect(await underToast(page, fileName), '/admin/database').toEqual([]);
    });

    test('on a page scrolled down, a toast still rests where it covers no button', async ({ page, context, school }) => {
      await page.emulateMedia({ reducedMotion: 'no-preference' }); // toasts slide in and out as most users see them
      const removed = await school.createStudent();
      await loginViaApi(context, 'admin');
      await navigate(page, '/admin/students');
      const search = page.getByLabel('Buscar por nome, matrícula, email ou turma');
      await search.fill(removed.studentId);
      await page.getByRole('button', { name: `Excluir ${removed.name}` }).click();
      await page.getByRole('dialog', { name: 'Excluir estudante' }).getByRole('button', { name: 'Excluir' }).click();
      await expect(page.getByRole('dialog', { name: 'Excluir estudante' })).toHaveCount(0);
      // The pointer rests on the toast, which keeps it shown (not past its 3 s) while the page moves beneath it.
      await page.locator('[data-rht-toaster] [role="status"]').filter({ hasText: removed.name }).hover();
      // The whole list again (the demo school's page of students), scrolled so its rows and buttons pass under the toast's place.
      await search.fill('');
      await expect(page.getByRole('button', { name: /^Excluir / }).nth(5)).toBeVisible();
      // A few positions a row apart, so some button always passes where the toast is.
      for (const step of [0, 1, 2, 3]) {
        const scrolled = await page.evaluate((offset) => {
          window.scrollTo(0, (document.documentElement.scrollHeight - window.innerHeight) / 2 + offset);
          return window.scrollY;
        }, step * 20);
        expect(scrolled, 'the list is long enough to scroll').toBeGreaterThan(200);
        expect(await underToast(page, removed.name), `/admin/students scrolled to ${scrolled}px`).toEqual([]);
      }
    });

    test("the dashboard's tag badge leaves the avatar's initials readable", async ({ page, context, school }) => {
      // A holder without a photo, so the avatar shows initials; the newest Líder is the one the dashboard shows.
      const holder = await school.createStudent();
      const given = await school.admin.put(`/api/admin/students/${holder.id}/tags/leader`, { data: { days: 7 } });
      expect(given.status(), await given.text()).toBe(200);
      await loginViaApi(context, await school.createStudent());
      await navigate(page, '/student');
      const item = page.getByTestId('active-tag').filter({ hasText: holder.name });
      await expect(item.getByRole('img', { name: holder.name })).toBeVisible();
      const overlap = await item.evaluate((tag) => {
        const range = document.createRange();
        range.selectNodeContents(tag.querySelector('[role="img"] > span')!);
        const text = range.getBoundingClientRect();
        const mark = tag.querySelector('.absolute')!.getBoundingClientRect();
        return {
          text: text.width * text.height,
          overlap: text.left < mark.right && mark.left < text.right && text.top < mark.bottom && mark.top < text.bottom,
        };
      });
      expect(overlap.text).toBeGreaterThan(0);
      expect(overlap.overlap, 'the badge lies over the initials').toBe(false);
    });

    test("counts agree in number: 'Falta 1 Esteleca', 'Falta 1', 'Falta 1 M$'", async ({ page, context, school }) => {
      const student = await school.createStudent({ meritus: 1, estelecas: 49 });
      await loginViaApi(context, student);
      const { goal } = await getJson<{ goal: { target: number } }>(page, '/api/me/summary');
      await school.award(student, 'meritus', goal.target - 2, 'Quase na meta');

      await navigate(page, '/student/estelecas');
      await expect(page.getByText('Falta 1 Esteleca', { exact: true })).toBeVisible();
      await expect(page.getByTestId('achievement').filter({ hasText: 'Colecionador' })).toContainText('Falta 1');
      await expect(page.getByText(/Faltam 1\b/)).toHaveCount(0);

      await navigate(page, '/student');
      await expect(page.getByText(`Falta 1 M$ de ${goal.target.toLocaleString('pt-BR')} M$`, { exact: true })).toBeVisible();
    });

    test('accessible names begin with what the button shows: likes and the phone list’s Nova senha', async ({ page, context, school }) => {
      const student = await school.createStudent();
      await loginViaApi(context, student);
      await navigate(page, '/student');
      const like = page
        .getByTestId('active-tag')
        .first()
        .getByRole('button', { name: /^Curtir / });
      await expect(like).toHaveAttribute('aria-pressed', 'false');
      expect(await nameMismatches(page), '/student').toEqual([]);
      await expectNoSeriousA11yViolations(page);

      await loginViaApi(context, 'admin');
      await navigate(page, '/admin/students');
      await page.getByLabel('Buscar por nome, matrícula, email ou turma').fill(student.studentId);
      // The phone's cards label the button; the desktop table has an icon button named by its tooltip.
      await expect(
        page.getByRole('button', { name: phone ? `Nova senha de ${student.name}` : `Redefinir senha de ${student.name}` }),
      ).toBeVisible();
      await expect(page.getByRole('link', { name: 'Exportar alunos (CSV)' })).toHaveText('Exportar alunos');
      expect(await nameMismatches(page), '/admin/students').toEqual([]);
    });

    test('an http:// photo address is refused with a message that asks for https', async ({ page, context }) => {
      await loginViaApi(context, 'admin');
      await navigate(page, '/admin/students');
      await page.getByRole('button', { name: 'Adicionar Aluno' }).click();
      const dialog = page.getByRole('dialog', { name: 'Adicionar Aluno' });
      await dialog.getByLabel('URL da imagem').fill('http://exemplo.com/foto.jpg');
      await dialog.getByRole('button', { name: 'Verificar' }).click();
      await expect(dialog.getByText('A URL da imagem deve começar com https://', { exact: false })).toBeVisible();
    });
  });
}
