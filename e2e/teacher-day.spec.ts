import { randomInt, randomUUID } from 'node:crypto';
import type { Page } from '@playwright/test';
import sharp from 'sharp';
import { expectNoSeriousA11yViolations } from './axe.ts';
import { expect, loginViaApi, navigate, test, type TestTeacher } from './fixtures.ts';

/** The turma the teachers of these tests teach. */
const TURMA = '2º EM - Turma A';

/** What a teacher's sidebar lists: the staff area without the coordination's pages (Configurações, Painel Backend, Debug & Diagnóstico). */
const TEACHER_NAV = [
  'Dashboard',
  'Gerenciar Alunos',
  'Gerenciar M$',
  'Estelecas',
  'Loja',
  'Ranking',
  'Hall da Fama',
  'Operações em Tempo Real',
  'Relatórios',
  'Data-Base',
];

/** Pages of the coordination a teacher may type the address of, with an API call each of them makes. */
const COORDINATION_PAGES = [
  { path: '/admin/settings', api: '/api/admin/staff' },
  { path: '/admin/backend', api: '/api/admin/system/overview' },
  { path: '/admin/debug', api: '/api/admin/diagnostics/logs' },
];

const SIZES = [
  { name: 'desktop', viewport: { width: 1440, height: 900 }, phone: false },
  { name: 'phone', viewport: { width: 390, height: 844 }, phone: true },
] as const;

/** Signs in on the login page's staff form, as the teacher would. */
async function signIn(page: Page, teacher: TestTeacher): Promise<void> {
  await page.goto('/login');
  await page.getByRole('tab', { name: 'Administrador' }).click();
  await page.getByLabel('Email').fill(teacher.email);
  await page.getByLabel('Senha', { exact: true }).fill(teacher.password);
  await page.getByRole('button', { name: 'Entrar' }).click();
  await expect(page).toHaveURL('/admin');
}

/** The sidebar's entries: the fixed sidebar on a wide screen, the drawer (opened, then closed again) on a phone. */
async function navLabels(page: Page, phone: boolean): Promise<string[]> {
  if (phone) await page.getByRole('button', { name: 'Abrir menu' }).click();
  const nav = page.getByRole('navigation', { name: 'Menu principal' });
  await expect(nav.getByRole('link', { name: 'Dashboard' })).toBeVisible();
  const labels = (await nav.getByRole('link').allTextContents()).map((label) => label.trim());
  if (phone) await page.getByRole('button', { name: 'Fechar menu' }).click();
  return labels;
}

/** Opens the sidebar (the drawer on a phone) and reads the member's facts under their name. */
async function staffFacts(page: Page, phone: boolean): Promise<string> {
  if (phone) await page.getByRole('button', { name: 'Abrir menu' }).click();
  const chip = page.getByTestId('user-name').locator('xpath=..');
  const text = (await chip.textContent()) ?? '';
  if (phone) await page.getByRole('button', { name: 'Fechar menu' }).click();
  return text;
}

for (const size of SIZES) {
  test.describe(`a teacher's day (${size.viewport.width}×${size.viewport.height})`, () => {
    test.use({ viewport: size.viewport, isMobile: size.phone, hasTouch: size.phone });

    test(
      'signs in on the same screen and works in the staff area without the coordination pages; ' +
        "a coordination page's address says 'Sem permissão' and its API answers 403",
      async ({ page, school }) => {
        const teacher = await school.createTeacher([TURMA]);
        await signIn(page, teacher);

        await expect(page.getByRole('heading', { level: 1, name: `Olá, ${teacher.name.split(' ')[0]}!` })).toBeVisible();
        await expect(page.getByText(`Acompanhe a participação da sua turma: ${TURMA}.`)).toBeVisible();
        expect(await navLabels(page, size.phone)).toEqual(TEACHER_NAV);
        const facts = await staffFacts(page, size.phone);
        expect(facts).toContain('Professor');
        expect(facts).toContain(`Turmas: ${TURMA}`);
        // The dashboard's quick actions and goals: nothing of the coordination.
        const quick = page.locator('section', { has: page.getByRole('heading', { name: 'Ações rápidas' }) });
        await expect(quick.getByRole('link', { name: /Relatórios/ })).toBeVisible();
        await expect(quick.getByRole('link', { name: /Configurações/ })).toHaveCount(0);
        await expect(page.getByRole('heading', { name: 'Metas' })).toBeVisible();
        await expect(page.getByRole('button', { name: /^Editar meta/ })).toHaveCount(0);
        await expectNoSeriousA11yViolations(page);

        for (const { path, api } of COORDINATION_PAGES) {
          await navigate(page, path);
          await expect(page.getByRole('heading', { level: 1, name: 'Sem permissão' }), path).toBeVisible();
          await expect(page.getByText('Esta página é da coordenação da escola.')).toBeVisible();
          expect((await page.request.get(api)).status(), api).toBe(403);
        }
        await expectNoSeriousA11yViolations(page);
        await page.getByRole('link', { name: 'Voltar ao Dashboard' }).click();
        await expect(page).toHaveURL('/admin');

        // Students: their tags, not their records (creation, import, editing, passwords and removal are the coordination's).
        await navigate(page, '/admin/students');
        await expect(page.getByRole('heading', { level: 1, name: 'Gerenciar Alunos' })).toBeVisible();
        await expect(page.getByRole('button', { name: /^Tags de / }).first()).toBeVisible();
        for (const name of [
          /^Adicionar Aluno$/,
          /^Importar planilha$/,
          /^Editar /,
          /^Redefinir senha de /,
          /^Nova senha de /,
          /^Excluir /,
        ]) {
          await expect(page.getByRole('button', { name })).toHaveCount(0);
        }
        await expectNoSeriousA11yViolations(page);
      },
    );

    test('a teacher without turmas is told why the screens of students are empty, and whom to ask', async ({ page, context, school }) => {
      const teacher = await school.createTeacher();
      await loginViaApi(context, teacher);
      await navigate(page, '/admin');
      await expect(page.getByText('Você ainda não tem turmas.')).toBeVisible();
      await expect(page.getByText('Peça à coordenação para atribuir suas turmas.', { exact: false })).toBeVisible();
      expect(await staffFacts(page, size.phone)).toContain('Sem turmas');
      await expectNoSeriousA11yViolations(page);
      const screens = [
        ['/admin/students', 'Gerenciar Alunos'],
        ['/admin/meritus', 'Gerenciar M$'],
        ['/admin/estelecas', 'Estelecas'],
        ['/admin/ranking', 'Ranking'],
        ['/admin/recent-operations', 'Operações em Tempo Real'],
        ['/admin/reports', 'Relatórios'],
      ] as const;
      for (const [path, title] of screens) {
        await navigate(page, path);
        await expect(page.getByRole('heading', { level: 1, name: title }), path).toBeVisible();
        await expect(page.getByText('Você ainda não tem turmas.'), path).toBeVisible();
        await expect(page.getByRole('table'), path).toHaveCount(0);
      }
      await expectNoSeriousA11yViolations(page);
    });
  });
}

/** A PNG no other test uploads (the archive keeps one copy of identical bytes). */
function uniquePng(): Promise<Buffer> {
  const background = { r: randomInt(256), g: randomInt(256), b: randomInt(256) };
  return sharp({ create: { width: randomInt(120, 240), height: randomInt(90, 180), channels: 3, background } })
    .png()
    .toBuffer();
}

test("the archive: a teacher edits and deletes their own images; the others' are read-only", async ({ page, context, school }) => {
  const word = `t${randomUUID().slice(0, 8)}`;
  const teacher = await school.createTeacher([TURMA]);
  await loginViaApi(context, teacher);
  const uploads = { own: `${word}-minha.png`, other: `${word}-da-coordenacao.png` };
  for (const [who, fileName] of [
    [page.request, uploads.own],
    [school.admin, uploads.other],
  ] as const) {
    const response = await who.post('/api/admin/archive/images', {
      multipart: { files: { name: fileName, mimeType: 'image/png', buffer: await uniquePng() } },
    });
    expect(response.status(), await response.text()).toBe(200);
  }
  await navigate(page, '/admin/database');
  await page.getByRole('searchbox', { name: 'Buscar por nome, descrição, tags ou uploader' }).fill(word);
  await expect(page.getByText('2 arquivos encontrados')).toBeVisible();

  for (const action of ['Editar', 'Excluir']) {
    await expect(page.getByRole('button', { name: `${action} ${uploads.own}`, exact: true })).toBeVisible();
  }
  await expect(page.getByRole('checkbox', { name: `Selecionar ${uploads.own}` })).toBeVisible();
  await expect(page.getByRole('button', { name: `Baixar ${uploads.other}` })).toBeVisible();
  for (const action of ['Editar', 'Excluir']) {
    await expect(page.getByRole('button', { name: `${action} ${uploads.other}`, exact: true })).toHaveCount(0);
  }
  await expect(page.getByRole('checkbox', { name: `Selecionar ${uploads.other}` })).toHaveCount(0);
  // Making an image a student's photo changes the student: not offered without the permission to manage students.
  await expect(page.getByRole('button', { name: 'Selecionar para Estudante' })).toHaveCount(0);
  await page.getByRole('button', { name: `Ver detalhes de ${uploads.other}` }).click();
  const details = page.getByRole('dialog', { name: uploads.other });
  // The footer's Fechar (the corner's × is named Fechar too).
  const close = details.getByText('Fechar', { exact: true });
  await expect(close).toBeVisible();
  await expect(details.getByRole('button', { name: 'Editar Imagem' })).toHaveCount(0);
  await expectNoSeriousA11yViolations(page, { within: '[role="dialog"]' });
  await close.click();

  await page.getByRole('button', { name: `Excluir ${uploads.own}`, exact: true }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Excluir' }).click();
  await expect(page.getByText('1 arquivo encontrado')).toBeVisible();
  await expectNoSeriousA11yViolations(page);
});
