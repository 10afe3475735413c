import { randomInt } from 'node:crypto';
import type { Page } from '@playwright/test';
import sharp from 'sharp';
import { expectNoSeriousA11yViolations } from './axe.ts';
import { expect, holdRequests, loginViaApi, navigate, test, withoutLiveEvents } from './fixtures.ts';
import { ADMIN_STUDENT_TEXTS } from '../src/shared/admin-students.ts';

const SCREEN = '/admin/students';

/** A date as the screens show it (São Paulo calendar). */
function brDate(date: Date): string {
  return new Intl.DateTimeFormat('pt-BR', { timeZone: 'America/Sao_Paulo' }).format(date);
}

async function searchFor(page: Page, text: string): Promise<void> {
  await page.getByRole('searchbox', { name: 'Buscar por nome, matrícula, email ou turma' }).fill(text);
}

/**
 * Searches a matrícula and waits until the list shows that student alone: a click on their row before the search's
 * answer lands could hit the spot the answer moves the row from (a CI run's Excluir opened nothing).
 */
async function showOnly(page: Page, studentId: string): Promise<void> {
  await searchFor(page, studentId);
  await expect(page.getByText(/^Mostrando 1–1 de 1 /)).toBeVisible();
}

/** The table row of a student (desktop layout). */
function row(page: Page, name: string) {
  return page.getByRole('row').filter({ has: page.getByText(name, { exact: true }) });
}

/** A matrícula no other test uses (seven digits after a 9, as fresh students of the fixture have eight). */
const freshMatricula = () => `9${String(randomInt(1_000_000, 9_999_999))}`;

test.describe('Gerenciar Alunos', () => {
  test('renders nothing for a visitor and sends them to sign in', async ({ page }) => {
    await page.goto(SCREEN);
    await expect(page).toHaveURL('/login');
    await expect(page.getByRole('heading', { name: 'Gerenciar Alunos' })).toHaveCount(0);
  });

  test('creates a student with an uploaded photo, who then signs in', async ({ page, browser }) => {
    test.slow(); // two browser sessions, an upload and a sign-in
    const matricula = freshMatricula();
    const name = 'Lívia Conceição Araújo';
    const photo = await sharp({ create: { width: 640, height: 480, channels: 3, background: { r: 220, g: 90, b: 40 } } })
      .png()
      .toBuffer();

    await loginViaApi(page.context(), 'admin');
    await navigate(page, SCREEN);
    await page.getByRole('button', { name: 'Adicionar Aluno' }).click();
    const dialog = page.getByRole('dialog', { name: 'Adicionar Aluno' });

    // The spec's rule first: required fields.
    await dialog.getByRole('button', { name: 'Cadastrar aluno' }).click();
    await expect(page.getByText('Preencha todos os campos obrigatórios')).toBeVisible();
    // The keyboard goes to the first field to fix (a frame later: typing before it lands would go elsewhere).
    await expect(dialog.getByLabel('Nome completo *')).toBeFocused();

    await dialog.getByLabel('Matrícula *').fill(matricula);
    await dialog.getByLabel('Nome completo *').fill(name);
    await dialog.getByLabel('Email').fill(`livia.${matricula}@escola.test`);
    await dialog.getByLabel('Turma').selectOption('2º EM - Turma C');
    await dialog.getByLabel('Senha *', { exact: true }).fill('primeiro-acesso');
    await dialog.getByLabel('Méritus inicial').fill('25');
    await dialog.getByRole('tab', { name: 'Enviar arquivo' }).click();

    // A text file named like a photo is refused by its bytes, before sending.
    await dialog
      .getByLabel('Arquivo da foto')
      .setInputFiles({ name: 'foto.png', mimeType: 'image/png', buffer: Buffer.from('não sou uma imagem') });
    await expect(dialog.getByText('Formato não suportado. Use JPG, PNG, GIF ou WebP.')).toBeVisible();
    await dialog.getByLabel('Arquivo da foto').setInputFiles({ name: 'livia.png', mimeType: 'image/png', buffer: photo });
    await expect(dialog.getByText(/^livia\.png · /)).toBeVisible();

    await dialog.getByRole('button', { name: 'Cadastrar aluno' }).click();
    await expect(page.getByText(`Estudante ${name} cadastrado com sucesso!`)).toBeVisible();
    await expect(dialog).toHaveCount(0);

    await searchFor(page, matricula);
    const created = row(page, name);
    await expect(created).toHaveCount(1);
    await expect(created.getByRole('img', { name })).toHaveAttribute(
      'src',
      /^\/uploads\/students\/[0-9a-f-]{36}\/[0-9a-f]{16}\.thumb\.webp\?v=1$/,
    );
    await expect(created.getByText('25 M$')).toBeVisible();
    await expect(created.getByText('2º EM - Turma C')).toBeVisible();

    // The new student signs in with the password given.
    const context = await browser.newContext();
    const studentPage = await context.newPage();
    await studentPage.goto('/login');
    await studentPage.getByRole('tab', { name: 'Estudante' }).click();
    await studentPage.getByLabel('Matrícula').fill(matricula);
    await studentPage.getByLabel('Senha', { exact: true }).fill('primeiro-acesso');
    await studentPage.getByRole('button', { name: 'Entrar' }).click();
    await expect(studentPage).toHaveURL('/student');
    await expect(studentPage.getByTestId('user-name')).toHaveText(name);
    await expect(studentPage.getByRole('img', { name }).first()).toHaveAttribute('src', /\/uploads\/students\/.+\.webp\?v=1$/);
    await context.close();
  });

  test('a photo address is checked in the browser: invalid, then valid', async ({ page }) => {
    await loginViaApi(page.context(), 'admin');
    await navigate(page, SCREEN);
    await page.getByRole('button', { name: 'Adicionar Aluno' }).click();
    const dialog = page.getByRole('dialog', { name: 'Adicionar Aluno' });
    // Typing can start at once: focus is on the first field, not on the dialog's Fechar.
    await expect(dialog.getByLabel('Nome completo *')).toBeFocused();
    const url = dialog.getByLabel('URL da imagem');
    await url.fill('isto não é uma url');
    await dialog.getByRole('button', { name: 'Verificar' }).click();
    await expect(dialog.getByText('URL da imagem inválida ou inacessível')).toBeVisible();
    await url.fill('/uploads/avatars/nao-existe.webp');
    await dialog.getByRole('button', { name: 'Verificar' }).click();
    await expect(dialog.getByText('URL da imagem inválida ou inacessível')).toBeVisible();
    const existing = (await (await page.request.get('/api/admin/students?size=100')).json()) as { items: { photo: string | null }[] };
    const photo = existing.items.find((student) => student.photo)!.photo!;
    await url.fill(photo.replace(/\?v=\d+$/, ''));
    await dialog.getByRole('button', { name: 'Verificar' }).click();
    await expect(dialog.getByText('URL da imagem válida!')).toBeVisible();
  });

  test('a half-filled form asks before it closes: a stray Escape loses nothing; an untouched form closes at once', async ({ page }) => {
    await loginViaApi(page.context(), 'admin');
    await navigate(page, SCREEN);
    await page.getByRole('button', { name: 'Adicionar Aluno' }).click();
    const dialog = page.getByRole('dialog', { name: 'Adicionar Aluno' });
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();

    await page.getByRole('button', { name: 'Adicionar Aluno' }).click();
    await dialog.getByLabel('Nome completo *').fill('Jurema Antunes');
    await page.keyboard.press('Escape');
    await expect(dialog.getByRole('alert')).toHaveText('Sair sem salvar? As alterações serão perdidas.');
    await expect(dialog.getByRole('button', { name: 'Continuar editando' })).toBeFocused();
    await dialog.getByRole('button', { name: 'Continuar editando' }).click();
    await expect(dialog.getByLabel('Nome completo *')).toHaveValue('Jurema Antunes');
    await expect(dialog.getByLabel('Nome completo *')).toBeFocused();

    // Sent with a required field empty: the keyboard lands on it, beside its message.
    await dialog.getByRole('button', { name: 'Cadastrar aluno' }).click();
    await expect(dialog.getByLabel('Matrícula *')).toBeFocused();

    await dialog.getByRole('button', { name: 'Cancelar' }).click();
    await dialog.getByRole('button', { name: 'Sair sem salvar' }).click();
    await expect(dialog).toBeHidden();
  });

  test('tags: added with the expiry date, shown in the list, and gone as soon as they expire', async ({ page, school }) => {
    const student = await school.createStudent();
    // The page's clock runs from now, and the test moves it past the tag's end instead of waiting for it.
    await page.clock.install();
    await loginViaApi(page.context(), 'admin');
    await navigate(page, SCREEN);
    await showOnly(page, student.studentId);
    await page.getByRole('button', { name: `Tags de ${student.name}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Gerenciar Tags' });
    await expect(dialog.getByLabel('Duração (dias)')).toHaveValue('7');
    await dialog.getByLabel('Duração (dias)').fill('366');
    await expect(dialog.getByText('A duração deve ser um número inteiro de 1 a 365 dias')).toBeVisible();
    await expect(dialog.getByRole('switch', { name: 'Líder da Semana' })).toBeDisabled();
    await dialog.getByLabel('Duração (dias)').fill('1');

    const before = Date.now();
    await dialog.getByRole('switch', { name: 'Líder da Semana' }).click();
    const expected = [brDate(new Date(before + 86_400_000)), brDate(new Date(Date.now() + 86_400_000))];
    await expect(
      page.getByText(new RegExp(`^Tag Líder da Semana adicionada até (${expected.join('|').replace(/\//g, '\\/')})$`)),
    ).toBeVisible();
    await expect(dialog.getByRole('switch', { name: 'Líder da Semana' })).toHaveAttribute('aria-checked', 'true');
    await expect(dialog.getByText(/^Ativa até \d{2}\/\d{2}\/\d{4} · Falta 1 dia$/)).toBeVisible();

    await dialog.getByRole('switch', { name: 'Anjo da Semana' }).click();
    await expect(page.getByText(/^Tag Anjo da Semana adicionada até/)).toBeVisible();
    // The switch turns on once the list has read the tag: clicked before, it would ask to add it again.
    await expect(dialog.getByRole('switch', { name: 'Anjo da Semana' })).toHaveAttribute('aria-checked', 'true');
    await dialog.getByRole('switch', { name: 'Anjo da Semana' }).click();
    await expect(page.getByText('Tag Anjo da Semana removida')).toBeVisible();
    await expect(dialog.getByRole('switch', { name: 'Anjo da Semana' })).toHaveAttribute('aria-checked', 'false');
    await dialog.getByRole('button', { name: 'Concluir' }).click();

    const tags = page.getByRole('list', { name: `Tags de ${student.name}` });
    await expect(tags.getByRole('listitem')).toHaveCount(1);
    await expect(tags.getByText(/^Líder da Semana até /)).toBeAttached();

    // An administrator moves the tag's end to an hour from now (the API, as from another screen): the list hears of it
    // and reads the students again, the new end included. An hour, so no other test's open list sees the tag end in real
    // time and says so (at two minutes, the toast of another test's students list was replaced by '1 tag expirada removida').
    const end = new Date(Date.now() + 60 * 60_000);
    const reread = page.waitForResponse(async (response) => {
      if (new URL(response.url()).pathname !== '/api/admin/students' || response.request().method() !== 'GET') return false;
      const list = ((await response.json()) as { items: { id: string; tags: { kind: string; expiresAt: string }[] }[] }).items;
      return list.some((each) => each.id === student.id && each.tags.some((tag) => Date.parse(tag.expiresAt) === end.getTime()));
    });
    const moved = await page.request.patch(`/api/admin/students/${student.id}/tags/leader`, { data: { expiresAt: end.toISOString() } });
    expect(moved.status()).toBe(200);
    await reread;
    // Without reloading: when the page's clock passes that end, the screen drops the tag and says how many of the
    // students shown ended (the page of the search for this student). Only this one, unless a test beside this one
    // moved the end of a tag of a student the search also finds into the same hour.
    const jump = 60 * 60_000 + 5_000;
    const pageNow = await page.evaluate(() => Date.now());
    const shown = await page.request.get(`/api/admin/students?q=${student.studentId}`);
    const listed = ((await shown.json()) as { items: { tags: { expiresAt: string }[] }[] }).items;
    const ending = listed.flatMap((each) => each.tags).filter((tag) => Date.parse(tag.expiresAt) <= pageNow + jump).length;
    expect(ending).toBeGreaterThanOrEqual(1);
    await page.clock.fastForward(jump);
    await expect(page.getByText(ending === 1 ? '1 tag expirada removida' : `${ending} tags expiradas removidas`)).toBeVisible();
    await expect(page.getByRole('list', { name: `Tags de ${student.name}` })).toHaveCount(0);
  });

  test('delete asks first, then removes the student from the list; they can no longer sign in', async ({ page, school }) => {
    const student = await school.createStudent();
    await loginViaApi(page.context(), 'admin');
    await navigate(page, SCREEN);
    await showOnly(page, student.studentId);
    await page.getByRole('button', { name: `Excluir ${student.name}` }).click();
    const confirm = page.getByRole('dialog', { name: 'Excluir estudante' });
    await expect(confirm.getByText(student.name)).toBeVisible();
    await expect(confirm.getByRole('button', { name: 'Cancelar' })).toBeFocused();
    await confirm.getByRole('button', { name: 'Cancelar' }).click();
    await expect(row(page, student.name)).toHaveCount(1);

    await page.getByRole('button', { name: `Excluir ${student.name}` }).click();
    // A double click deletes once and says so (its second click used to send a second DELETE, answered 404: 'Erro ao excluir').
    const deletes: string[] = [];
    page.on('request', (request) => request.method() === 'DELETE' && deletes.push(request.url()));
    // Both clicks land while the deletion is on its way, the case this is about. Answered between them (a busy machine
    // spaces a double click's two clicks by more than a deletion takes), the dialog is gone and the second click lands
    // on the page beneath, which takes the keyboard's focus from the search as any click there does.
    const deletion = await holdRequests(page, 'DELETE', `/api/admin/students/${student.id}`);
    await confirm.getByRole('button', { name: 'Excluir' }).dblclick();
    deletion.release();
    await expect(page.getByText(`Estudante ${student.name} excluído`)).toBeVisible();
    expect(deletes).toHaveLength(1);
    await expect(page.getByText('Erro ao excluir estudante')).toHaveCount(0);
    await expect(row(page, student.name)).toHaveCount(0);
    // The row whose button opened the dialog is gone: the keyboard resumes at the search.
    await expect(page.getByLabel('Buscar por nome, matrícula, email ou turma')).toBeFocused();
    await expect(page.getByText('Nenhum estudante encontrado')).toBeVisible();

    const signIn = await page.request.post('/api/auth/student/login', {
      data: { studentId: student.studentId, password: student.password },
    });
    expect(signIn.status()).toBe(401);
  });

  test('password reset shows the new password once, and it works', async ({ page, context, school }) => {
    const student = await school.createStudent();
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await loginViaApi(page.context(), 'admin');
    await navigate(page, SCREEN);
    await showOnly(page, student.studentId);
    await page.getByRole('button', { name: `Redefinir senha de ${student.name}` }).click();
    await page.getByRole('dialog', { name: 'Redefinir senha' }).getByRole('button', { name: 'Gerar nova senha' }).click();
    const shown = page.getByTestId('new-password');
    await expect(shown).toHaveText(/^[a-z]{4}-[a-z]{4}-[2-9]{2}$/);
    const password = (await shown.textContent())!;
    await page.getByRole('button', { name: 'Copiar' }).click();
    await expect(page.getByText('Senha copiada')).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(password);
    await page.getByRole('dialog', { name: 'Nova senha' }).getByRole('button', { name: 'Concluir' }).click();
    await expect(page.getByTestId('new-password')).toHaveCount(0);

    const old = await page.request.post('/api/auth/student/login', { data: { studentId: student.studentId, password: student.password } });
    expect(old.status()).toBe(401);
    const fresh = await page.request.post('/api/auth/student/login', { data: { studentId: student.studentId, password } });
    expect(fresh.status()).toBe(200);
  });

  test('imports a secretary’s CSV: preview marks each row, valid rows are created, passwords download once', async ({ page }) => {
    await loginViaApi(page.context(), 'admin');
    await navigate(page, SCREEN);
    const suffix = String(randomInt(10_000, 99_999));
    const csv = [
      'Matrícula;Nome do aluno;E-mail;Série;Data de nascimento',
      `81${suffix};Iara Tupã Gonçalves;;1º EM - Turma A;05/03/2010`,
      `82${suffix};Ícaro Brandão;icaro.${suffix}@escola.test;3º EM - Turma D;2009-12-31`,
      `;Sem Matrícula;;2B;`,
      `83${suffix};Série Errada;;9Z;`,
    ].join('\r\n');
    await page.getByRole('button', { name: 'Importar planilha' }).click();
    const wizard = page.getByRole('dialog', { name: 'Importar alunos' });
    await wizard.getByLabel('Planilha de alunos').setInputFiles({
      name: 'alunos-secretaria.csv',
      mimeType: 'text/csv',
      buffer: Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(csv, 'utf8')]),
    });
    await expect(wizard.getByText('2 válidas')).toBeVisible();
    await expect(wizard.getByText('2 com problemas')).toBeVisible();
    const preview = wizard.getByRole('table', { name: 'Pré-visualização da importação' });
    await expect(preview.getByRole('row').filter({ hasText: 'Sem Matrícula' })).toContainText('Matrícula não informada');
    await expect(preview.getByRole('row').filter({ hasText: 'Série Errada' })).toContainText('Turma não reconhecida: "9Z"');
    await expect(preview.getByRole('row').filter({ hasText: 'Iara Tupã Gonçalves' })).toContainText('Válida');

    // A double click imports once and shows the passwords (its second click used to hide them behind a refusal).
    const imports: string[] = [];
    page.on(
      'request',
      (request) => request.method() === 'POST' && request.url().endsWith('/api/admin/students/import') && imports.push(request.url()),
    );
    // Both clicks land while the import is on its way: answered between them, the second would land on the dialog that
    // follows, on whatever is under the pointer there.
    const importing = await holdRequests(page, 'POST', '/api/admin/students/import');
    await wizard.getByRole('button', { name: 'Importar 2 alunos' }).dblclick();
    importing.release();
    const done = page.getByRole('dialog', { name: '2 alunos importados' });
    await expect(done).toBeVisible();
    expect(imports).toHaveLength(1);
    // Before the passwords are saved, Escape and Concluir keep the dialog open, say why and lead to the download.
    await page.keyboard.press('Escape');
    await done.getByRole('button', { name: 'Concluir' }).click();
    await expect(done).toBeVisible();
    await expect(done.getByRole('alert')).toHaveText(ADMIN_STUDENT_TEXTS.importPasswordsFirst);
    await expect(done.getByRole('button', { name: 'Baixar senhas (CSV)' })).toBeFocused();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      done.getByRole('button', { name: 'Baixar senhas (CSV)' }).click(),
    ]);
    const bytes = await (await download.createReadStream()).toArray();
    const text = Buffer.concat(bytes as Buffer[]).toString('utf8');
    expect(text.startsWith('\uFEFFMatrícula;Nome;Turma;Senha inicial\r\n')).toBe(true);
    const iara = text.split('\r\n').find((line) => line.startsWith(`81${suffix};`))!;
    expect(iara).toMatch(new RegExp(`^81${suffix};Iara Tupã Gonçalves;1º EM - Turma A;[a-z]{4}-[a-z]{4}-[2-9]{2}$`));
    await done.getByRole('button', { name: 'Concluir' }).click();
    await expect(done).toBeHidden();

    await searchFor(page, `81${suffix}`);
    await expect(row(page, 'Iara Tupã Gonçalves')).toHaveCount(1);
    const signIn = await page.request.post('/api/auth/student/login', { data: { studentId: `81${suffix}`, password: iara.split(';')[3] } });
    expect(signIn.status()).toBe(200);
  });

  test('exports students as a CSV for Excel (UTF-8 with BOM, ";")', async ({ page }) => {
    await loginViaApi(page.context(), 'admin');
    await navigate(page, SCREEN);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Exportar alunos (CSV)' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^estudantes-\d{4}-\d{2}-\d{2}\.csv$/);
    const text = Buffer.concat((await (await download.createReadStream()).toArray()) as Buffer[]).toString('utf8');
    expect(text.startsWith('\uFEFFMatrícula;Nome;Email;Turma;')).toBe(true);
  });

  test('no serious accessibility violation: list, form, tags and import', async ({ page }) => {
    test.slow(); // four axe-core scans
    await loginViaApi(page.context(), 'admin');
    await navigate(page, SCREEN);
    await expect(page.getByRole('heading', { name: 'Gerenciar Alunos' })).toBeVisible();
    await expect(page.getByRole('row').nth(1)).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    // Each dialog alone: the list behind it has just been scanned.
    await page.getByRole('button', { name: 'Adicionar Aluno' }).click();
    await expect(page.getByRole('dialog', { name: 'Adicionar Aluno' })).toBeVisible();
    await expectNoSeriousA11yViolations(page, { within: '[role="dialog"]' });
    await page.keyboard.press('Escape');
    await page
      .getByRole('button', { name: /^Tags de / })
      .first()
      .click();
    await expect(page.getByRole('dialog', { name: 'Gerenciar Tags' })).toBeVisible();
    await expectNoSeriousA11yViolations(page, { within: '[role="dialog"]' });
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Importar planilha' }).click();
    await expect(page.getByRole('dialog')).toBeVisible();
    await expectNoSeriousA11yViolations(page, { within: '[role="dialog"]' });
  });

  test('phones get cards with the same information and labelled actions', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await loginViaApi(page.context(), 'admin');
    await navigate(page, SCREEN);
    const cards = page.getByRole('list', { name: 'Estudantes' });
    await expect(cards).toBeVisible();
    await expect(page.getByRole('table')).toBeHidden();
    await expect(
      cards
        .getByRole('listitem')
        .first()
        .getByRole('button', { name: /^Editar / }),
    ).toBeVisible();
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(390);
    await expectNoSeriousA11yViolations(page);
  });

  test('the spec’s error toasts when the server fails: load, save, delete, tags', async ({ page }) => {
    test.slow(); // waits for the list's one retry
    await loginViaApi(page.context(), 'admin');
    await withoutLiveEvents(page);
    const failure = {
      status: 500,
      contentType: 'application/json',
      body: JSON.stringify({ error: { code: 'internal', message: 'Erro interno. Tente novamente.' } }),
    };
    const list = (url: URL) => url.pathname === '/api/admin/students';
    await page.route(list, (route) => route.fulfill(failure));
    await page.goto(SCREEN);
    await expect(page.getByText('Erro ao carregar estudantes').first()).toBeVisible({ timeout: 10_000 });
    await expect(page.getByRole('button', { name: 'Tentar novamente' })).toBeVisible();
    await page.unroute(list);
    await page.getByRole('button', { name: 'Tentar novamente' }).click();
    await expect(page.getByRole('row').nth(1)).toBeVisible();

    await page.route(list, (route) => (route.request().method() === 'POST' ? route.fulfill(failure) : route.fallback()));
    await page.getByRole('button', { name: 'Adicionar Aluno' }).click();
    const dialog = page.getByRole('dialog', { name: 'Adicionar Aluno' });
    await dialog.getByLabel('Matrícula *').fill('9999001');
    await dialog.getByLabel('Nome completo *').fill('Falha Simulada');
    await dialog.getByLabel('Senha *', { exact: true }).fill('segredo-123');
    await dialog.getByRole('button', { name: 'Cadastrar aluno' }).click();
    await expect(page.getByText('Erro ao salvar estudante')).toBeVisible();
    await expect(dialog).toBeVisible();
    // What was typed is still unsaved: leaving asks first.
    await dialog.getByRole('button', { name: 'Cancelar' }).click();
    await dialog.getByRole('button', { name: 'Sair sem salvar' }).click();
    await expect(dialog).toBeHidden();

    await page.route('**/api/admin/students/*', (route) =>
      route.request().method() === 'DELETE' ? route.fulfill(failure) : route.fallback(),
    );
    await page
      .getByRole('button', { name: /^Excluir / })
      .first()
      .click();
    await page.getByRole('dialog', { name: 'Excluir estudante' }).getByRole('button', { name: 'Excluir' }).click();
    await expect(page.getByText('Erro ao excluir estudante')).toBeVisible();
    await page.getByRole('dialog', { name: 'Excluir estudante' }).getByRole('button', { name: 'Cancelar' }).click();

    await page.route('**/api/admin/students/*/tags/*', (route) => route.fulfill(failure));
    await page
      .getByRole('button', { name: /^Tags de / })
      .first()
      .click();
    await page.getByRole('dialog', { name: 'Gerenciar Tags' }).getByRole('switch', { name: 'Anjo da Semana' }).click();
    await expect(page.getByText('Erro ao atualizar tags')).toBeVisible();
  });

  test('search filters as you type: by name without accents, matrícula and série', async ({ page, school }) => {
    const student = await school.createStudent();
    await loginViaApi(page.context(), 'admin');
    await navigate(page, SCREEN);
    await searchFor(
      page,
      student.name
        .toUpperCase()
        .normalize('NFD')
        .replace(/[\u0300-\u036f]/g, ''),
    );
    await expect(row(page, student.name)).toHaveCount(1);
    await searchFor(page, student.studentId);
    await expect(page.getByText(/^Mostrando 1–1 de 1 /)).toBeVisible();
    await searchFor(page, '');
    await page.getByLabel('Filtrar por turma').selectOption('3º EM - Turma D');
    const rows = page.getByRole('row');
    await expect(rows.nth(1)).toBeVisible();
    // The server filters: the last page stays on screen until the turma's page arrives.
    await expect(async () => {
      const cells = await page
        .getByRole('cell')
        .filter({ hasText: /º EM - Turma/ })
        .allTextContents();
      expect(cells.length).toBeGreaterThan(0);
      for (const cell of cells) expect(cell).toBe('3º EM - Turma D');
    }).toPass();
  });
});
