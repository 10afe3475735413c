import type { Page } from '@playwright/test';
import { ENTITY_LABELS, SYSTEM_TEXTS, type ConfigEntry, type SystemOverview } from '../src/shared/system.ts';
import { urlOf } from '../src/shared/contract/route.ts';
import { routes } from '../src/shared/contract/routes.ts';
import type { StaffMember } from '../src/shared/staff.ts';
import { expectNoSeriousA11yViolations } from './axe.ts';
import { expect, getJson, loginViaApi, navigate, test } from './fixtures.ts';

const SIZES = [
  { name: 'desktop', viewport: { width: 1440, height: 900 } },
  { name: 'phone', viewport: { width: 390, height: 844 } },
] as const;

const integer = new Intl.NumberFormat('pt-BR', { maximumFractionDigits: 0 });

async function asAdmin(page: Page, path: string): Promise<void> {
  await loginViaApi(page.context(), 'admin');
  await navigate(page, path);
}

async function openTab(page: Page, name: string): Promise<void> {
  await page.getByRole('tab', { name }).click();
  await expect(page.getByRole('tab', { name })).toHaveAttribute('aria-selected', 'true');
}

for (const size of SIZES) {
  test.describe(`Painel Backend (${size.name})`, () => {
    test.use({ viewport: size.viewport });

    test('Visão Geral counts the student just created, beside the real health and this instance', async ({ page, school }) => {
      await loginViaApi(page.context(), 'admin');
      const before = await getJson<SystemOverview>(page, urlOf(routes.system.overview));
      await school.createStudent();
      await navigate(page, '/admin/backend');
      await expect(page.getByRole('heading', { level: 1, name: 'Painel Backend' })).toBeVisible();
      await expect(page.getByRole('tab', { name: 'Visão Geral' })).toHaveAttribute('aria-selected', 'true');

      // Other tests may add students meanwhile: the screen agrees with a fresh answer, which counts ours.
      const shown = page.getByTestId('count-studentsActive');
      await expect(async () => {
        await page.reload();
        const now = await getJson<SystemOverview>(page, urlOf(routes.system.overview));
        expect(now.counts.studentsActive).toBeGreaterThanOrEqual(before.counts.studentsActive + 1);
        await expect(shown).toHaveText(integer.format(now.counts.studentsActive), { timeout: 2_000 });
      }).toPass();

      const health = page.getByRole('list', { name: 'Saúde real' });
      await expect(health).toContainText('Banco de dados');
      await expect(health).toContainText('Migrações');
      await expect(page.getByText(before.instance.id)).toBeVisible();
      await expect(page.getByText(before.versions.node)).toBeVisible();
      await expectNoSeriousA11yViolations(page);
    });

    test('Entidades searches on the server and never shows a password hash', async ({ page, school }) => {
      const student = await school.createStudent();
      await asAdmin(page, '/admin/backend');
      await openTab(page, 'Entidades');
      await expect(page.getByLabel('Entidade', { exact: true })).toHaveValue('students');

      const answer = page.waitForResponse((response) => response.url().includes(`q=${student.studentId}`) && response.ok());
      await page.getByLabel(`Buscar em ${ENTITY_LABELS.students}`).fill(student.studentId);
      await answer;
      const table = page.getByRole('region', { name: `Tabela: ${ENTITY_LABELS.students}` });
      await expect(table.getByRole('row')).toHaveCount(2);
      await expect(table.getByRole('cell', { name: student.name })).toBeVisible();
      await expect(page.getByText('Página 1 de 1 · 1 registro')).toBeVisible();
      await expect(table).not.toContainText('$argon2');

      const exportLink = page.getByRole('link', { name: 'Exportar CSV' });
      await expect(exportLink).toHaveAttribute(
        'href',
        urlOf(routes.system.entityExport, { params: { entity: 'students' }, query: { q: student.studentId } }),
      );
      await expectNoSeriousA11yViolations(page);
    });

    test('Monitoramento names the instance that answered and draws the last minutes', async ({ page }) => {
      await asAdmin(page, '/admin/backend?aba=monitoramento');
      const overview = await getJson<SystemOverview>(page, urlOf(routes.system.overview));
      await expect(page.getByTestId('monitoring-instance')).toHaveText(overview.instance.id);
      await expect(page.getByTestId('monitoring-current')).toContainText('Requisições');
      // the charts' chunk (uPlot) loaded and drew
      await expect(page.locator('.uplot canvas').first()).toBeVisible();
      await expect(page.getByRole('region', { name: 'Tabela: por grupo de rotas' })).toContainText('Área administrativa');
      await expectNoSeriousA11yViolations(page);
    });

    test('Configurações lists every setting with its source and explanation, read-only', async ({ page }) => {
      await asAdmin(page, '/admin/backend');
      await openTab(page, 'Configurações');
      const { entries } = await getJson<{ entries: ConfigEntry[] }>(page, urlOf(routes.system.configuration));
      for (const entry of entries) await expect(page.getByTestId(`config-${entry.name}`)).toContainText(entry.description);
      // the test server's port comes from the environment
      await expect(page.getByTestId('config-PORT')).toContainText('Ambiente');
      await expect(page.getByRole('tabpanel').getByRole('textbox')).toHaveCount(0);
      await expectNoSeriousA11yViolations(page);
    });
  });
}

// One diagnostic log for the whole school: these tests clear it, so they run one after the other.
test.describe('Debug & Diagnóstico', () => {
  test.describe.configure({ mode: 'serial' });

  for (const size of SIZES) {
    test.describe(size.name, () => {
      test.use({ viewport: size.viewport });

      test('opening runs a diagnostic; chips filter by category; Limpar Logs empties the list', async ({ page }) => {
        await loginViaApi(page.context(), 'admin');
        // Other tests add teachers meanwhile: the run counts the staff as it stood between these two reads.
        const staffCount = async () => (await getJson<StaffMember[]>(page, urlOf(routes.staff.list))).length;
        const before = await staffCount();
        await navigate(page, '/admin/debug');
        await expect(page.getByRole('heading', { level: 1, name: 'Debug & Diagnóstico' })).toBeVisible();
        const logs = page.getByRole('list', { name: 'Logs de diagnóstico' });
        await expect(logs.getByText('CONNECTIVITY').first()).toBeVisible();
        await expect(page.getByRole('button', { name: 'Executar Diagnóstico' })).toBeEnabled();
        const after = await staffCount();
        const shown = Number((await page.getByTestId('counter-administrators').innerText()).replace(/\D/g, ''));
        expect(shown).toBeGreaterThanOrEqual(before);
        expect(shown).toBeLessThanOrEqual(after);
        await expectNoSeriousA11yViolations(page);

        // a log's details open as formatted JSON
        const items = logs.getByTestId('debug-log');
        const withDetails = items.filter({ has: page.locator('summary') }).first();
        await withDetails.getByText('Detalhes').click();
        await expect(withDetails.locator('pre')).toBeVisible();

        await page.getByRole('button', { name: 'STUDENTS', exact: true }).click();
        await expect(page.getByRole('button', { name: 'STUDENTS', exact: true })).toHaveAttribute('aria-pressed', 'true');
        await expect(items.first()).toContainText('STUDENTS');
        await expect(items.filter({ hasNotText: 'STUDENTS' })).toHaveCount(0);

        await page.getByRole('button', { name: 'Todos', exact: true }).click();
        await page.getByRole('button', { name: 'Limpar Logs' }).click();
        await page.getByRole('dialog', { name: 'Limpar Logs' }).getByRole('button', { name: 'Limpar Logs' }).click();
        await expect(page.getByText(SYSTEM_TEXTS.noLogs)).toBeVisible();
        await expect(page.getByText(SYSTEM_TEXTS.noLogsHint)).toBeVisible();
        await expect(page.getByTestId('counter-logs')).toContainText('0');
        await expectNoSeriousA11yViolations(page);
      });

      test('Corrigir Administrators says what it will do first and changes nothing while an administrator exists', async ({ page }) => {
        await asAdmin(page, '/admin/debug');
        // Other tests add teachers meanwhile: what the fix would add is a coordinator, so those are counted.
        const coordinators = async () =>
          (await getJson<StaffMember[]>(page, urlOf(routes.staff.list))).filter((member) => member.role === 'coordinator').length;
        const before = await coordinators();
        await page.getByRole('button', { name: 'Corrigir Administrators' }).click();
        const dialog = page.getByRole('dialog', { name: 'Corrigir Administrators' });
        await expect(dialog).toContainText('somente se não houver nenhum administrador');
        await expectNoSeriousA11yViolations(page);
        await dialog.getByRole('button', { name: 'Aplicar correção' }).click();
        // the toast, and the FIX entry the server logged
        await expect(page.getByRole('status').filter({ hasText: SYSTEM_TEXTS.adminExists })).toBeVisible();
        await expect(
          page
            .getByRole('list', { name: 'Logs de diagnóstico' })
            .getByTestId('debug-log')
            .filter({ hasText: SYSTEM_TEXTS.adminExists })
            .first(),
        ).toContainText('FIX');
        expect(await coordinators()).toBe(before);
      });
    });
  }
});
