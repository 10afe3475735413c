import { randomUUID } from 'node:crypto';
import { expectNoSeriousA11yViolations } from './axe.ts';
import { expect, loginViaApi, openPersonalData, test, VIEWPORTS } from './fixtures.ts';

/**
 * Email (decision 038) on the screens: the letter by email in the student's 'Responsáveis', the weekly summary's switch
 * in the family area, and the public page of the email's opt-out link. This server has email on (playwright.config.ts).
 */

for (const viewport of VIEWPORTS) {
  test.describe(`Email at ${viewport.width}×${viewport.height}`, () => {
    test.use({ viewport: { width: viewport.width, height: viewport.height } });

    test('the coordination sends a student’s letter by email; a bad address is refused in place', async ({ page, school }) => {
      const child = await school.createStudent();
      await loginViaApi(page, 'admin');
      const dialog = await openPersonalData(page, child);
      const field = dialog.getByLabel('Enviar a carta por email');
      await field.fill('nao-e-um-email');
      await dialog.getByRole('button', { name: 'Enviar carta' }).click();
      await expect(dialog.getByRole('alert').filter({ hasText: 'email' })).toBeVisible();
      const address = `carta.${randomUUID().slice(0, 8)}@exemplo.test`;
      await field.fill(address);
      await dialog.getByRole('button', { name: 'Enviar carta' }).click();
      await expect(page.getByText(`Carta para responsáveis de ${child.name} na fila de envio para ${address}`)).toBeVisible();
      await expect(field).toHaveValue('');
      await expect(dialog.getByText(/Há um código ainda não usado/)).toBeVisible();
      await expectNoSeriousA11yViolations(page, { within: '[role="dialog"]' });
    });

    test('a guardian turns the weekly summary off and on in the family area; a tampered opt-out link is refused', async ({
      page,
      school,
    }) => {
      const child = await school.createStudent();
      const code = await school.admin.post(`/api/admin/students/${child.id}/guardian-codes`);
      const signup = await page.request.post('/api/auth/guardian/signup', {
        data: {
          code: ((await code.json()) as { code: string }).code,
          email: `resumo.${randomUUID().slice(0, 8)}@exemplo.test`,
          name: 'Lúcia Responsável',
          password: 'senha-da-familia-1',
        },
      });
      expect(signup.status()).toBe(201);
      const guardianId = ((await signup.json()) as { guardian: { id: string } }).guardian.id;
      await page.goto('/familia');
      const toggle = page.getByRole('checkbox', { name: /Receber toda segunda-feira o resumo da semana/ });
      await expect(toggle).toBeChecked();
      await toggle.uncheck();
      await expect(page.getByText('Resumo semanal desligado.')).toBeVisible();
      expect(await (await page.request.get('/api/family/mail')).json()).toEqual({ enabled: true, weeklySummary: false });
      await toggle.check();
      await expect(page.getByText('Resumo semanal ligado: você recebe um email toda segunda-feira.')).toBeVisible();
      expect(await (await page.request.get('/api/family/mail')).json()).toEqual({ enabled: true, weeklySummary: true });
      await expectNoSeriousA11yViolations(page);

      await page.goto(`/emails/resumo-semanal?responsavel=${guardianId}&assinatura=${'A'.repeat(43)}`);
      await expect(page.getByRole('heading', { name: 'Resumo semanal por email' })).toBeVisible();
      await expect(page.getByRole('alert')).toContainText('Link inválido');
      await expectNoSeriousA11yViolations(page);
      expect(await (await page.request.get('/api/family/mail')).json()).toEqual({ enabled: true, weeklySummary: true });
    });
  });
}
