import { test, expect, loginViaApi, navigate, getJson } from './fixtures.ts';
import { expectNoSeriousA11yViolations } from './axe.ts';
import type { SchoolSettings } from '../src/shared/settings.ts';

/** Settings are the school's, shared by every test of the run: each test puts back what it changed. */
async function withSettings(
  school: { admin: import('@playwright/test').APIRequestContext },
  change: (current: SchoolSettings) => Promise<void>,
  body: () => Promise<void>,
) {
  const current = await getJson<SchoolSettings>(school.admin, '/api/settings');
  await change(current);
  try {
    await body();
  } finally {
    await school.admin.put('/api/admin/settings/rules', { data: current.rules });
    await school.admin.put('/api/admin/settings/school', { data: { name: current.school.name, timeZone: current.school.timeZone } });
  }
}

for (const size of [
  { name: 'desktop', viewport: { width: 1440, height: 900 } },
  { name: 'phone', viewport: { width: 390, height: 844 } },
]) {
  test(`the settings screen (${size.name}): every section, axe clean`, async ({ page }) => {
    await page.setViewportSize(size.viewport);
    await loginViaApi(page, 'admin');
    await navigate(page, '/admin/settings');
    await expect(page.getByRole('heading', { name: 'Configurações' })).toBeVisible();
    for (const section of ['Escola', 'Regras', 'Turmas', 'Equipe'])
      await expect(page.getByRole('heading', { name: section })).toBeVisible();
    await expect(page.getByLabel('Meta de Méritus (M$)')).toHaveValue(/^\d+$/);
    await expect(page.getByRole('list', { name: 'Turmas da escola' }).getByRole('listitem')).not.toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Salvar regras' })).toBeVisible();
    await expect(page.getByRole('checkbox', { name: 'Professores podem cadastrar alunos' })).not.toBeChecked();
    await expect(page.getByLabel('Limite semanal padrão dos professores de M$')).toHaveValue('');
    await expect(page.getByRole('list', { name: 'Equipe' }).getByText('admin@escola.com')).toBeVisible();
    await expectNoSeriousA11yViolations(page);

    // A rename takes the keyboard into its field; Escape leaves it unchanged, back on its 'Renomear'.
    await page.getByRole('button', { name: 'Renomear 1º EM - Turma A' }).click();
    await expect(page.getByLabel('Novo nome de 1º EM - Turma A')).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(page.getByRole('button', { name: 'Renomear 1º EM - Turma A' })).toBeFocused();

    // A refused turma says why beside its field, not only in a toast that leaves after 3 s.
    await page.getByLabel('Nova turma').fill('1º em - turma a');
    await page.getByRole('button', { name: 'Adicionar turma' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'Já existe uma turma com este nome' })).toBeVisible();
    await expect(page.getByLabel('Nova turma')).toHaveAttribute('aria-invalid', 'true');
  });
}

test("a new goal saved on the settings screen shows in a student's sidebar", async ({ page, browser, school }) => {
  const student = await school.createStudent({ meritus: 300 });
  await withSettings(
    school,
    async () => {},
    async () => {
      await loginViaApi(page, 'admin');
      await navigate(page, '/admin/settings');
      await page.getByLabel('Meta de Méritus (M$)').fill('600');
      await page.getByRole('button', { name: 'Salvar regras' }).click();
      await expect(page.getByText('Regras salvas')).toBeVisible();

      const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
      const studentPage = await context.newPage();
      await loginViaApi(studentPage, student);
      await navigate(studentPage, '/student');
      const sidebar = studentPage.getByRole('region', { name: 'Seus Méritus' });
      await expect(sidebar.getByText('Meta: 600 M$')).toBeVisible();
      await expect(sidebar.getByText('50%')).toBeVisible();
      await context.close();
    },
  );
});

test("the login page shows the school's name and its logo mark", async ({ page, school }) => {
  await withSettings(
    school,
    async (current) => {
      const saved = await school.admin.put('/api/admin/settings/school', {
        data: { name: 'Colégio Horizonte Azul', timeZone: current.school.timeZone },
      });
      expect(saved.status()).toBe(200);
    },
    async () => {
      await page.setViewportSize({ width: 390, height: 844 });
      await page.goto('/login');
      await expect(page.getByText('Colégio Horizonte Azul')).toBeVisible();
    },
  );
});
