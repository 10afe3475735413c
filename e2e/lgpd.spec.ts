import { expectNoSeriousA11yViolations } from './axe.ts';
import { expect, getJson, loginViaApi, openPersonalData, test, VIEWPORTS, type RankingAnswer } from './fixtures.ts';

/** The LGPD's screens (decision 030): the student's personal data, the erasure, the image consent and the privacy page. */

for (const viewport of VIEWPORTS) {
  test.describe(`LGPD at ${viewport.width}×${viewport.height}`, () => {
    test.use({ viewport: { width: viewport.width, height: viewport.height } });

    test('the coordination opens a student’s personal data, sees who saw it, and erases it with the name typed again', async ({
      page,
      school,
    }) => {
      const student = await school.createStudent({ email: `lgpd.${Date.now()}@familia.test`, birthDate: '2012-04-09' });
      await loginViaApi(page, 'admin');
      const dialog = await openPersonalData(page, student);
      await expect(dialog.getByText('09/04/2012')).toBeVisible();
      // The opening itself is the first entry of the access log.
      await expect(dialog.getByRole('listitem').filter({ hasText: 'Abriu os dados pessoais' }).first()).toBeVisible();
      await expectNoSeriousA11yViolations(page, { within: '[role="dialog"]' });

      await dialog.getByRole('button', { name: 'Excluir dados pessoais' }).click();
      const erase = page.getByRole('dialog', { name: 'Excluir dados pessoais' });
      await expect(erase.getByText('Esta ação não pode ser desfeita.')).toBeVisible();
      await erase.getByLabel(/Digite o nome do estudante/).fill('outro nome');
      await erase.getByLabel('Motivo').fill('Pedido da família em 28/11');
      await erase.getByRole('button', { name: 'Excluir dados pessoais' }).click();
      await expect(erase.getByText('Digite o nome do estudante, como aparece acima, para confirmar')).toBeVisible();
      await expectNoSeriousA11yViolations(page, { within: '[role="dialog"]' });

      await erase.getByLabel(/Digite o nome do estudante/).fill(student.name.toUpperCase());
      await erase.getByRole('button', { name: 'Excluir dados pessoais' }).click();
      await expect(page.getByText(/Dados pessoais excluídos\. O estudante agora aparece como Aluno removido #\d+\./)).toBeVisible();
      await expect(page.getByRole('dialog')).toHaveCount(0);
      // The student can no longer sign in.
      const signIn = await page.request.post('/api/auth/student/login', {
        data: { studentId: student.studentId, password: student.password },
      });
      expect(signIn.status()).toBe(401);
    });

    test('the image consent flag decides whether classmates see the photo', async ({ page, school, playwright, baseURL }) => {
      const student = await school.createStudent();
      const photo = `https://fotos.escola.test/${student.studentId}.jpg`;
      expect((await school.admin.put(`/api/admin/students/${student.id}/photo`, { data: { url: photo } })).status()).toBe(200);
      const classmate = await school.createStudent();
      const classmateApi = await playwright.request.newContext({ baseURL });
      await loginViaApi(classmateApi, classmate);
      const photoSeen = async () => {
        const answer = await getJson<{ items: { id: string; photo: string | null }[] }>(
          classmateApi,
          `/api/students/directory?q=${student.studentId}`,
        );
        return answer.items.find((item) => item.id === student.id)?.photo ?? null;
      };
      expect(await photoSeen()).toBeNull();

      await loginViaApi(page, 'admin');
      const dialog = await openPersonalData(page, student);
      const consent = dialog.getByRole('checkbox', { name: /Consentimento de imagem/ });
      await expect(consent).not.toBeChecked();
      await consent.check();
      await expect(page.getByText(`Consentimento de imagem registrado para ${student.name}`)).toBeVisible();
      await expect(consent).toBeChecked();
      await expect.poll(photoSeen).toContain(photo);
      const ranking = await getJson<RankingAnswer>(classmateApi, '/api/ranking?size=5');
      expect(ranking.total).toBeGreaterThan(0);
      await classmateApi.dispose();
    });

    test('the privacy page opens from the login, public, with the school’s contact', async ({ page, school }) => {
      const contact = `Secretaria — privacidade.${viewport.name}@escola.test`;
      const saved = await school.admin.put('/api/admin/settings/privacy', { data: { contact, retentionMonths: null } });
      expect(saved.status(), await saved.text()).toBe(200);
      await page.goto('/login');
      await page.getByRole('link', { name: 'Privacidade' }).click();
      await expect(page).toHaveURL('/privacidade');
      await expect(page.getByRole('heading', { name: 'Privacidade', level: 1 })).toBeVisible();
      await expect(page.getByText('O que guardamos')).toBeVisible();
      // Another test may save its own contact meanwhile: the page shows the one stored now.
      await expect(page.getByRole('heading', { name: 'Contato' })).toBeVisible();
      await expect(page.getByText(/privacidade\.(phone|desktop)@escola\.test/)).toBeVisible();
      await expectNoSeriousA11yViolations(page);
      await page.getByRole('link', { name: 'Voltar ao login' }).click();
      await expect(page).toHaveURL('/login');
    });
  });
}
