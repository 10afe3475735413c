import { randomUUID } from 'node:crypto';
import type { Page } from '@playwright/test';
import { expectNoSeriousA11yViolations } from './axe.ts';
import { expect, loginViaApi, navigate, test, type TestStudent } from './fixtures.ts';

/** Issue 36, "The coordinator finds things": the sidebar, and the award forms. */

const SIZES = [
  { name: 'desktop', viewport: { width: 1440, height: 900 }, phone: false },
  { name: 'phone', viewport: { width: 390, height: 844 }, phone: true },
] as const;

/** Screens and the sidebar entry each one marks as the current page (a query string or not). */
const CURRENT_ENTRY = [
  { path: '/admin', entry: 'Dashboard' },
  { path: '/admin/reports', entry: 'Relatórios' },
  { path: '/admin/reports?periodo=mes', entry: 'Relatórios' },
  { path: '/admin/settings', entry: 'Configurações' },
  { path: '/admin/debug', entry: 'Debug & Diagnóstico' },
  { path: '/admin/database', entry: 'Data-Base' },
  { path: '/admin/meritus', entry: 'Gerenciar M$' },
];

/** The sidebar's menu: the fixed one on a wide screen, the drawer (opened) on a phone. */
async function openMenu(page: Page, phone: boolean) {
  if (phone) await page.getByRole('button', { name: 'Abrir menu' }).click();
  const nav = page.getByRole('navigation', { name: 'Menu principal' });
  await expect(nav.getByRole('link', { name: 'Dashboard' })).toBeVisible();
  return nav;
}

for (const size of SIZES) {
  test.describe(`the staff's sidebar (${size.name})`, () => {
    test.use({ viewport: size.viewport, isMobile: size.phone, hasTouch: size.phone });

    test('Relatórios and Configurações are listed, the technical screens under Sistema; the current entry is marked on every page', async ({
      page,
    }) => {
      await loginViaApi(page, 'admin');
      for (const { path, entry } of CURRENT_ENTRY) {
        await navigate(page, path);
        const nav = await openMenu(page, size.phone);
        await expect(nav.getByRole('link', { name: entry, exact: true }), path).toHaveAttribute('aria-current', 'page');
        await expect(nav.locator('[aria-current="page"]'), path).toHaveCount(1);
        if (size.phone) await page.getByRole('button', { name: 'Fechar menu' }).click();
      }

      const nav = await openMenu(page, size.phone);
      const sistema = nav.getByRole('list', { name: 'Sistema' });
      await expect(nav.getByRole('heading', { name: 'Sistema' })).toBeVisible();
      expect((await sistema.getByRole('link').allTextContents()).map((label) => label.trim())).toEqual([
        'Painel Backend',
        'Data-Base',
        'Debug & Diagnóstico',
      ]);
      const labels = (await nav.getByRole('link').allTextContents()).map((label) => label.trim());
      expect(labels.slice(-5)).toEqual(['Relatórios', 'Configurações', 'Painel Backend', 'Data-Base', 'Debug & Diagnóstico']);
      await expectNoSeriousA11yViolations(page);

      // Meu perfil opens from one's name at the top of the menu, which is then the marked entry.
      await page.getByRole('link', { name: /Meu perfil$/ }).click();
      await expect(page).toHaveURL('/admin/profile');
      await expect(page.getByRole('heading', { level: 1, name: 'Meu perfil' })).toBeVisible();
      const again = await openMenu(page, size.phone);
      await expect(page.getByRole('link', { name: /Meu perfil$/ })).toHaveAttribute('aria-current', 'page');
      await expect(again.locator('[aria-current="page"]')).toHaveCount(0);
    });
  });
}

/** Finds a student in the picker by matrícula and ticks them. */
async function pick(page: Page, student: TestStudent) {
  await page.getByLabel('Buscar estudante').fill(student.studentId);
  await page.getByRole('checkbox', { name: new RegExp(student.name) }).check();
}

test(
  'Gerenciar M$: each type says what it means; the chosen students are chips above the button, removable, and listed in ' +
    'the confirmation; the live feed names the operation with the same word',
  async ({ page, school }) => {
    const ana = await school.createStudent();
    const bento = await school.createStudent();
    await loginViaApi(page, 'admin');
    await navigate(page, '/admin/meritus');
    for (const [type, meaning] of [
      ['Adição', 'Ajuste: soma ao saldo sem ser prêmio (saldo inicial, correção de um erro).'],
      ['Recompensa', 'Prêmio por mérito: participação, conquista, bom comportamento.'],
      ['Remoção', 'Ajuste: tira do saldo sem ser castigo (correção de um lançamento errado).'],
      ['Penalidade', 'Castigo por uma falta: regra descumprida, indisciplina.'],
    ] as const)
      await expect(page.getByRole('radio', { name: `${type} ${meaning}` })).toBeVisible();

    await pick(page, ana);
    await pick(page, bento);
    const chips = page.getByRole('list', { name: 'Estudantes selecionados' });
    await expect(chips.getByRole('button')).toHaveText([ana.name, bento.name]);
    await chips.getByRole('button', { name: `Tirar ${ana.name} da seleção` }).click();
    await expect(chips.getByRole('button')).toHaveText([bento.name]);
    await expect(page.getByRole('button', { name: /^Adicionar Méritus$/ })).toBeVisible();
    await pick(page, ana);
    await expect(chips.getByRole('button')).toHaveText([bento.name, ana.name]);

    const description = `Feira de ciências ${randomUUID().slice(0, 8)}`;
    await page.getByRole('radio', { name: /^Recompensa/ }).check();
    await page.getByLabel('Valor (M$)').fill('3');
    await page.getByLabel('Descrição').fill(description);
    await page.getByRole('button', { name: 'Adicionar Méritus (2 estudantes)' }).click();
    const dialog = page.getByRole('dialog', { name: 'Conceder a vários estudantes?' });
    await expect(dialog.getByRole('list', { name: 'Estudantes da operação' }).getByRole('listitem')).toHaveText([bento.name, ana.name]);
    await expectNoSeriousA11yViolations(page);
    await dialog.getByRole('button', { name: 'Confirmar' }).click();
    await expect(page.getByText('3 M$ concedidos a 2 estudantes')).toBeVisible();
    await expect(chips).toHaveCount(0);

    await navigate(page, '/admin/recent-operations');
    await page.getByLabel('Buscar operações').fill(description);
    const rows = page.getByTestId('live-operation');
    await expect(rows).toHaveCount(2);
    for (const row of await rows.all()) await expect(row.getByText('Recompensa', { exact: true })).toBeVisible();
    await expect(page.getByLabel('Tipo').locator('option')).toContainText(['Adição e Recompensa', 'Remoção e Penalidade']);
  },
);

test('Estelecas: the type chosen says what it means, and the student chosen shows as a chip above the button', async ({ page, school }) => {
  const student = await school.createStudent();
  await loginViaApi(page, 'admin');
  await navigate(page, '/admin/estelecas');
  await page.getByRole('button', { name: 'Adicionar Estelecas' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Adicionar Estelecas' });
  await expect(dialog.getByRole('radio', { name: /^Adição Ajuste: soma ao saldo/ })).toBeChecked();
  await expect(dialog.getByRole('radio', { name: /^Recompensa Prêmio por mérito/ })).toBeVisible();
  await dialog.getByLabel('Buscar estudante').fill(student.studentId);
  await dialog.getByRole('radio', { name: new RegExp(student.name) }).check();
  const chip = dialog.getByRole('list', { name: 'Estudante selecionado' });
  await expect(chip.getByRole('button')).toHaveText([student.name]);
  await chip.getByRole('button', { name: `Tirar ${student.name} da seleção` }).click();
  await expect(chip).toHaveCount(0);
});
