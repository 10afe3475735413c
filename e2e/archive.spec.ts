import { randomInt, randomUUID } from 'node:crypto';
import type { APIRequestContext, Page } from '@playwright/test';
import sharp from 'sharp';
import { expectNoSeriousA11yViolations } from './axe.ts';
import { expect, loginViaApi, navigate, test } from './fixtures.ts';

const SCREEN = '/admin/database';

/** A PNG no other test uploads (the archive keeps one copy of identical bytes): a random colour, optionally noisy (large). */
async function uniquePng(options: { width?: number; height?: number; noise?: boolean } = {}): Promise<Buffer> {
  const width = options.width ?? randomInt(200, 400);
  const height = options.height ?? randomInt(150, 300);
  if (options.noise) {
    const raw = Buffer.alloc(width * height * 3);
    for (let i = 0; i < raw.length; i += 1) raw[i] = randomInt(256);
    return sharp(raw, { raw: { width, height, channels: 3 } })
      .png({ compressionLevel: 0 })
      .toBuffer();
  }
  return sharp({ create: { width, height, channels: 3, background: { r: randomInt(256), g: randomInt(256), b: randomInt(256) } } })
    .png()
    .toBuffer();
}

type Uploaded = { id: string; fileName: string };

/** Stores an image through the API as the demo administrator (test setup). */
async function uploadViaApi(admin: APIRequestContext, fileName: string, fields: Record<string, string> = {}): Promise<Uploaded> {
  const response = await admin.post('/api/admin/archive/images', {
    multipart: { ...fields, files: { name: fileName, mimeType: 'image/png', buffer: await uniquePng() } },
  });
  expect(response.status(), await response.text()).toBe(200);
  const body = (await response.json()) as { results: { ok: boolean; item: { id: string } }[] };
  return { id: body.results[0]!.item.id, fileName };
}

/** A word no other test puts in a file name, so a search shows only this test's files. */
const token = () => `t${randomUUID().slice(0, 8)}`;

function card(page: Page, fileName: string) {
  return page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: fileName, exact: true }) });
}

async function search(page: Page, text: string): Promise<void> {
  await page.getByRole('searchbox', { name: 'Buscar por nome, descrição, tags ou uploader' }).fill(text);
}

test.describe('Data-Base (desktop)', () => {
  test('upload shows each file’s progress; filters and sort; edit; delete asks first', async ({ page, context }) => {
    test.slow(); // a throttled upload and a full round of the screen
    const word = token();
    await loginViaApi(context, 'admin');
    await navigate(page, SCREEN);
    await expect(page.getByRole('link', { name: 'Data-Base' })).toHaveAttribute('aria-current', 'page');

    // A slow line, so the transfer takes a few seconds and its progress can be seen moving.
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 20,
      downloadThroughput: -1,
      uploadThroughput: 150 * 1024,
    });
    const big = await uniquePng({ width: 420, height: 420, noise: true });
    const small = await uniquePng({ width: 40, height: 30 });

    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Upload de arquivos' });
    await dialog.getByLabel('Tags').fill(`${word}, feira`);
    await dialog.getByLabel('Categoria').selectOption('icone');
    await dialog.getByLabel('Arquivos para enviar').setInputFiles([
      { name: `${word}-grande.png`, mimeType: 'image/png', buffer: big },
      { name: `${word}-pequena.png`, mimeType: 'image/png', buffer: small },
      { name: `${word}-vazio.png`, mimeType: 'image/png', buffer: Buffer.alloc(0) },
    ]);
    const bar = dialog.getByRole('progressbar', { name: `Envio de ${word}-grande.png` });
    await expect(bar).toHaveAttribute('aria-valuenow', /^[1-9]\d?$/);
    await expect(dialog.getByRole('button', { name: 'Enviando...' })).toBeDisabled();
    await expect(dialog.getByRole('button', { name: 'Aguarde...' })).toBeDisabled();
    await expect(dialog.getByText(`${word}-vazio.png: Arquivo vazio`)).toBeVisible();
    // The dialog closes with its list of errors: the closing toast still says a file was left out.
    await expect(page.getByText('2 arquivos enviados com sucesso! 1 arquivo inválido ignorado')).toBeVisible({ timeout: 30_000 });
    await expect(dialog).toHaveCount(0);
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });

    // Files dragged over the page show the overlay; dropped, they wait in the Upload modal. The same bytes are not stored twice.
    const dropped = await page.evaluateHandle(
      ({ bytes, name }) => {
        const transfer = new DataTransfer();
        transfer.items.add(new File([new Uint8Array(bytes)], name, { type: 'image/png' }));
        return transfer;
      },
      { bytes: [...small], name: `${word}-copia.png` },
    );
    await page.dispatchEvent('main', 'dragenter', { dataTransfer: dropped });
    await expect(page.getByText('Solte os arquivos aqui para fazer upload')).toBeVisible();
    await page.dispatchEvent('main', 'drop', { dataTransfer: dropped });
    await expect(page.getByText('Solte os arquivos aqui para fazer upload')).toHaveCount(0);
    await dialog.getByRole('button', { name: 'Enviar 1 arquivo' }).click();
    // Nothing new is stored: the message names the file that holds these bytes.
    await expect(page.getByText(`${word}-copia.png já existe na Data-Base como ${word}-pequena.png.`)).toBeVisible();

    await search(page, word);
    await expect(page.getByText('2 arquivos encontrados')).toBeVisible();
    const names = page.getByRole('list', { name: 'Arquivos' }).getByRole('heading', { level: 3 });
    await page.getByRole('button', { name: 'Filtros', exact: true }).click();
    await page.getByLabel('Ordenar por').selectOption('size');
    await page.getByRole('button', { name: 'Ordem decrescente' }).click();
    await expect(names).toHaveText([`${word}-pequena.png`, `${word}-grande.png`]);
    await page.getByRole('button', { name: 'Ordem crescente' }).click();
    await expect(names).toHaveText([`${word}-grande.png`, `${word}-pequena.png`]);
    await page.getByLabel('Categoria').selectOption('banner');
    await expect(page.getByText('Nenhuma imagem encontrada')).toBeVisible();
    await expect(page.getByText('Tente ajustar os filtros de busca')).toBeVisible();
    await page.getByRole('button', { name: 'Categoria: Banner (remover filtro)' }).click();
    await expect(names).toHaveCount(2);
    await expect(card(page, `${word}-pequena.png`).getByText('Ícone')).toBeVisible();
    await expectNoSeriousA11yViolations(page);

    // Edit: not public any more, a new description.
    await page.getByRole('button', { name: `Editar ${word}-pequena.png` }).click();
    const edit = page.getByRole('dialog', { name: 'Editar Imagem' });
    await edit.getByLabel('Descrição').fill('Logotipo da feira');
    await edit.getByLabel('Pública').uncheck();
    await expect(edit.getByLabel('Nível de acesso')).toHaveValue('private');
    // A stray Escape asks before the changes are lost.
    await page.keyboard.press('Escape');
    await edit.getByRole('button', { name: 'Continuar editando' }).click();
    await expect(edit.getByLabel('Descrição')).toHaveValue('Logotipo da feira');
    // A server failure gives the server's reason ('Erro ao atualizar: {reason}'), not 'Erro desconhecido'; the form stays.
    const failure = {
      status: 500,
      contentType: 'application/json',
      body: JSON.stringify({ error: { code: 'internal', message: 'Erro interno. Tente novamente.' } }),
    };
    await page.route('**/api/admin/archive/images/*', (route) =>
      route.request().method() === 'PATCH' ? route.fulfill(failure) : route.fallback(),
    );
    await edit.getByRole('button', { name: 'Salvar Alterações' }).click();
    await expect(edit.getByRole('alert')).toHaveText('Erro interno. Tente novamente.');
    await expect(page.getByText('Erro ao atualizar: Erro interno. Tente novamente.')).toBeVisible();
    await page.unroute('**/api/admin/archive/images/*');
    await edit.getByRole('button', { name: 'Salvar Alterações' }).click();
    await expect(page.getByText('Imagem atualizada com sucesso!')).toBeVisible();
    await expect(card(page, `${word}-pequena.png`).getByText('Logotipo da feira')).toBeVisible();
    await expect(card(page, `${word}-pequena.png`).getByText('Privado')).toBeVisible();

    // Delete asks with the spec's words first.
    await page.getByRole('button', { name: `Excluir ${word}-grande.png` }).click();
    const confirm = page.getByRole('dialog', { name: `Deseja excluir "${word}-grande.png"?` });
    await expect(confirm.getByText('Esta ação não pode ser desfeita.')).toBeVisible();
    await confirm.getByRole('button', { name: 'Excluir' }).click();
    await expect(page.getByText('Imagem excluída com sucesso!')).toBeVisible();
    await expect(card(page, `${word}-grande.png`)).toHaveCount(0);
    await expect(page.getByText('1 arquivo encontrado')).toBeVisible();
  });

  test('share: links, copy, download, favourite and details', async ({ page, context, school }) => {
    const word = token();
    const image = await uploadViaApi(school.admin, `${word}-mural.png`, {
      description: 'Mural da turma',
      tags: 'a,b,c,d,e',
      category: 'galeria',
    });
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await loginViaApi(context, 'admin');
    await navigate(page, SCREEN);
    await search(page, word);
    const item = card(page, image.fileName);
    await expect(item.getByText('+2')).toBeVisible();

    await item.getByRole('button', { name: `Favoritar ${image.fileName}` }).click();
    await expect(page.getByText('Adicionado aos favoritos')).toBeVisible();
    await expect(item.getByRole('button', { name: `Remover ${image.fileName} dos favoritos` })).toHaveAttribute('aria-pressed', 'true');

    await item.getByRole('button', { name: `Copiar link de ${image.fileName}` }).click();
    await expect(page.getByText(`Link copiado: ${image.fileName}`)).toBeVisible();
    await expect(item.getByText('Usos: 1')).toBeAttached();

    await item.getByRole('button', { name: `Compartilhar ${image.fileName}` }).click();
    const share = page.getByRole('dialog', { name: 'Compartilhar Imagem' });
    // A public image has its link; revoking ends it, and a new one can be made.
    const link = share.getByText(/\/share\/image\/[A-Za-z0-9_-]{16,}$/);
    const first = await link.textContent();
    await share.getByRole('button', { name: 'Revogar link' }).click();
    await expect(page.getByText('Link de compartilhamento revogado')).toBeVisible();
    expect((await page.request.get(first!)).status()).toBe(404);
    await share.getByRole('button', { name: 'Criar link compartilhável' }).click();
    await expect(link).not.toHaveText(first!);
    await share.getByRole('button', { name: 'Copiar link compartilhável' }).click();
    await expect(page.getByText('Link compartilhável copiado!')).toBeVisible();
    const shared = await page.evaluate(() => navigator.clipboard.readText());
    expect((await page.request.get(shared)).status()).toBe(200);
    await expectNoSeriousA11yViolations(page);
    const download = page.waitForEvent('download');
    await share.getByRole('button', { name: 'Baixar' }).click();
    expect((await download).suggestedFilename()).toBe(image.fileName);
    await expect(page.getByText(`Download iniciado: ${image.fileName}`)).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(item.getByText('Downloads: 1')).toBeAttached();

    await item.getByRole('button', { name: `Ver detalhes de ${image.fileName}` }).click();
    const details = page.getByRole('dialog', { name: image.fileName });
    await expect(details.getByText(/^\d+ × \d+ pixels$/)).toBeVisible();
    await expect(details.getByText('Mural da turma')).toBeVisible();
  });

  test('a student’s photo picked from the archive in the student form', async ({ page, context, school }) => {
    const word = token();
    const student = await school.createStudent();
    const image = await uploadViaApi(school.admin, `${word}-retrato.png`, { category: 'perfil' });
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await loginViaApi(context, 'admin');
    await navigate(page, '/admin/students');
    await page.getByRole('searchbox', { name: 'Buscar por nome, matrícula, email ou turma' }).fill(student.studentId);
    await page.getByRole('button', { name: `Editar ${student.name}` }).click();
    const form = page.getByRole('dialog', { name: 'Editar Aluno' });
    await form.getByRole('tab', { name: 'Data-Base' }).click();
    await expect(form.getByText('Selecionar Imagem para Cadastro')).toBeVisible();
    await expect(form.getByRole('tab', { name: 'Banners' })).toBeVisible();
    await expect(form.getByRole('tab', { name: 'Todas' })).toBeVisible();
    await form.getByRole('searchbox', { name: 'Buscar imagem' }).fill(word);
    await form.getByRole('button', { name: new RegExp(image.fileName) }).click();
    await expect(page.getByText('Imagem selecionada! URL copiada para área de transferência')).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toMatch(/\/api\/archive\/files\/.+/);
    await expectNoSeriousA11yViolations(page);
    await form.getByRole('button', { name: 'Salvar alterações' }).click();
    await expect(form).toHaveCount(0);
    const found = await page.request.get(`/api/admin/students?q=${student.studentId}`);
    const students = ((await found.json()) as { items: { id: string; photo: string | null }[] }).items;
    expect(students.find((entry) => entry.id === student.id)?.photo).toMatch(/^\/api\/archive\/files\//);
  });
});

test.describe('Data-Base (phone)', () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test('cards reflow, list view, and a photo set from the gallery (clipboard refused)', async ({ page, context, school }) => {
    const word = token();
    const student = await school.createStudent();
    const image = await uploadViaApi(school.admin, `${word}-um-nome-de-arquivo-bem-comprido-para-quebrar-linha.png`, {
      category: 'perfil',
      tags: word,
    });
    // A browser that refuses the clipboard: the selection says the file's name instead.
    await page.addInitScript(() => {
      Object.defineProperty(navigator, 'clipboard', { value: { writeText: () => Promise.reject(new Error('negado')) } });
    });
    await loginViaApi(context, 'admin');
    await navigate(page, SCREEN);
    await search(page, word);
    // The search's own answer, not the card in the whole list shown until it arrives (which is then replaced).
    await expect(page.getByText('1 arquivo encontrado')).toBeVisible();
    const item = card(page, image.fileName);
    await expect(item).toBeVisible();
    const box = await item.boundingBox();
    expect(box!.width).toBeGreaterThan(300); // one card across the phone
    for (const label of ['Selecionar para Estudante', 'Atualizar', 'Upload']) {
      const button = page.getByRole('button', { name: label, exact: true });
      expect(await button.evaluate((element) => element.scrollWidth <= element.clientWidth + 1), label).toBe(true);
    }
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await expectNoSeriousA11yViolations(page);

    await page.getByRole('button', { name: 'Lista' }).click();
    await expect(page.getByLabel('Tamanho dos cards')).toHaveCount(0);
    await expect(item.getByRole('heading', { name: image.fileName })).toBeVisible();

    await item.getByRole('button', { name: `Selecionar ${image.fileName} para estudante` }).click();
    const dialog = page.getByRole('dialog', { name: 'Selecionar Imagem para Cadastro' });
    await dialog.getByRole('searchbox', { name: 'Buscar estudante' }).fill(student.studentId);
    await dialog.getByRole('radio', { name: new RegExp(student.name) }).check();
    await dialog.getByRole('button', { name: 'Definir como foto' }).click();
    await expect(page.getByText(`Imagem selecionada: ${image.fileName}`)).toBeVisible();
    await expect(dialog.getByText('Imagem Selecionada')).toBeVisible();
    await dialog.getByRole('button', { name: 'Concluir' }).click();
    await expect(item.getByText('Usos: 1')).toBeAttached();
    const found = await page.request.get(`/api/admin/students?q=${student.studentId}`);
    const students = ((await found.json()) as { items: { id: string; photo: string | null }[] }).items;
    expect(students.find((entry) => entry.id === student.id)?.photo).toMatch(/^\/api\/archive\/files\//);
  });
});
