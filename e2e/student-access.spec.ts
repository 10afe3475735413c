import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { APIRequestContext, Page } from '@playwright/test';
import { test, expect, loginViaApi, navigate, type TestStudent } from './fixtures.ts';

/**
 * Students get into their accounts (issue 36): access cards printed by the coordination, and a student's own password
 * (Meu Perfil › Alterar senha). The school's rule that a given password is changed first is in settings.spec.ts: it is
 * the school's, and would stop other tests' reset students.
 */

const SIZES = [
  { name: 'desktop', viewport: { width: 1440, height: 900 } },
  { name: 'phone', viewport: { width: 390, height: 844 } },
] as const;

async function pdfText(bytes: Buffer): Promise<string> {
  const document = await getDocument({ data: new Uint8Array(bytes), verbosity: 0 }).promise;
  const pages: string[] = [];
  for (let n = 1; n <= document.numPages; n++) {
    const content = await (await document.getPage(n)).getTextContent();
    pages.push(content.items.map((item) => ('str' in item ? item.str : '')).join(' '));
  }
  return pages.join('\n').replace(/\s+/g, ' ');
}

/** Whether a password signs a student in, tried from a context of its own (a sign-in sets its cookie there). */
async function signInStatus(probe: APIRequestContext, student: TestStudent, password: string): Promise<number> {
  const response = await probe.post('/api/auth/student/login', { data: { studentId: student.studentId, password } });
  return response.status();
}

/** Picks a student in the dialog's search by matrícula. */
async function pick(page: Page, student: TestStudent): Promise<void> {
  const dialog = page.getByRole('dialog', { name: 'Cartões de acesso' });
  await dialog.getByLabel('Buscar estudante').fill(student.studentId);
  await dialog.getByRole('checkbox', { name: new RegExp(student.name) }).check();
}

for (const size of SIZES) {
  test(`access cards for chosen students (${size.name}): the confirmation says passwords reset; the PDF's passwords sign in, the old ones not`, async ({
    page,
    school,
    playwright,
    baseURL,
  }) => {
    await page.setViewportSize(size.viewport);
    const [first, second] = [await school.createStudent(), await school.createStudent()];
    const bystander = await school.createStudent();
    // A session of the first student, open elsewhere: the reset ends it.
    const elsewhere = await playwright.request.newContext({ baseURL });
    await loginViaApi(elsewhere, first);
    const probe = await playwright.request.newContext({ baseURL });

    await loginViaApi(page, 'admin');
    await navigate(page, '/admin/students');
    await page.getByRole('button', { name: 'Cartões de acesso' }).click();
    const dialog = page.getByRole('dialog', { name: 'Cartões de acesso' });
    await expect(dialog.getByLabel('Turma', { exact: true })).toBeVisible();
    await dialog.getByRole('radio', { name: 'Alunos escolhidos' }).check();
    await pick(page, first);
    await pick(page, second);
    await expect(dialog.getByText('2 alunos escolhidos')).toBeVisible();
    await dialog.getByRole('button', { name: 'Continuar' }).click();

    const confirm = page.getByRole('dialog', { name: 'Gerar cartões de acesso' });
    await expect(confirm).toContainText('As senhas atuais de 2 alunos deixam de funcionar');
    // Nothing happened yet: the old password still signs in.
    expect(await signInStatus(probe, first, first.password)).toBe(200);
    await page.screenshot({ path: `/tmp/fm-access/cards-confirm-${size.name}.png` });

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      confirm.getByRole('button', { name: 'Redefinir e gerar PDF' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^cartoes-de-acesso-alunos-escolhidos-\d{4}-\d{2}-\d{2}\.pdf$/);
    await expect(page.getByText('2 cartões de acesso gerados: senhas redefinidas')).toBeVisible();
    await expect(confirm).toBeHidden();

    const text = await pdfText(Buffer.concat((await (await download.createReadStream()).toArray()) as Buffer[]));
    for (const student of [first, second]) {
      expect(text).toContain(student.name);
      const password = text.slice(text.indexOf(student.studentId)).match(/[a-z]{4}-[a-z]{4}-\d{2}/)?.[0];
      expect(password, `password of ${student.name}`).toBeDefined();
      expect(await signInStatus(probe, student, student.password)).toBe(401);
      expect(await signInStatus(probe, student, password!)).toBe(200);
    }
    expect(text).not.toContain(bystander.name);
    expect(await signInStatus(probe, bystander, bystander.password)).toBe(200);
    expect((await elsewhere.get('/api/auth/me')).status()).toBe(401);
    await elsewhere.dispose();
    await probe.dispose();
  });

  test(`a student changes their own password (${size.name}): the current one is required, other sessions end, this one stays`, async ({
    page,
    school,
    playwright,
    baseURL,
  }) => {
    await page.setViewportSize(size.viewport);
    const student = await school.createStudent();
    const elsewhere = await playwright.request.newContext({ baseURL });
    await loginViaApi(elsewhere, student);
    const probe = await playwright.request.newContext({ baseURL });
    await loginViaApi(page, student);
    await navigate(page, '/student/profile');
    await page.getByRole('button', { name: 'Alterar senha' }).click();
    const dialog = page.getByRole('dialog', { name: 'Alterar senha' });

    await dialog.getByLabel('Senha atual').fill('nao-e-a-minha');
    await dialog.getByLabel('Nova senha', { exact: true }).fill('minha-nova-senha');
    await dialog.getByLabel('Repita a nova senha').fill('minha-nova-senhx');
    await dialog.getByRole('button', { name: 'Salvar nova senha' }).click();
    await expect(dialog.getByText('As senhas não conferem')).toBeVisible();
    await dialog.getByLabel('Repita a nova senha').fill('minha-nova-senha');
    await dialog.getByRole('button', { name: 'Salvar nova senha' }).click();
    await expect(dialog.getByText('Senha atual incorreta')).toBeVisible();
    await page.screenshot({ path: `/tmp/fm-access/own-password-refused-${size.name}.png` });

    await dialog.getByLabel('Senha atual').fill(student.password);
    await dialog.getByRole('button', { name: 'Salvar nova senha' }).click();
    await expect(page.getByText('Senha alterada. Suas sessões em outros aparelhos foram encerradas.')).toBeVisible();
    await expect(dialog).toBeHidden();
    await page.screenshot({ path: `/tmp/fm-access/own-password-done-${size.name}.png` });

    expect((await elsewhere.get('/api/auth/me')).status()).toBe(401);
    await elsewhere.dispose();
    // This page's session carries on.
    await navigate(page, '/student');
    await expect(page).toHaveURL('/student');
    expect((await page.request.get('/api/me/summary')).status()).toBe(200);
    expect(await signInStatus(probe, student, 'minha-nova-senha')).toBe(200);
    expect(await signInStatus(probe, student, student.password)).toBe(401);
    await probe.dispose();
  });
}
