import { randomUUID } from 'node:crypto';
import type { APIRequestContext, Locator, Page, PlaywrightWorkerArgs } from '@playwright/test';
import type { AdminOrdersPage, AdminStoreItem, StoreItemInput } from '../src/shared/store.ts';
import { expectNoSeriousA11yViolations } from './axe.ts';
import { expect, getJson, loginViaApi, navigate, TEST_GRADE, test, type School, type TestStudent } from './fixtures.ts';

/**
 * The staff's Loja (/admin/loja): the catalogue, the orders' queue and a teacher's view, at a desktop's and a phone's
 * size. The demo school's catalogue is shared by every test running beside these: each test makes its own items, named
 * with a token, and reads them by name.
 */

const SIZES = [
  { width: 1440, height: 900 },
  { width: 390, height: 844 },
] as const;

const SCREEN = '/admin/loja';

const token = () => randomUUID().slice(0, 6).toUpperCase();

async function createItem(school: School, input: Partial<StoreItemInput> & { name: string }): Promise<AdminStoreItem> {
  const response = await school.admin.post('/api/admin/store/items', {
    data: { price: 5, currency: 'meritus', category: 'material', ...input },
  });
  expect(response.status(), await response.text()).toBe(201);
  return (await response.json()) as AdminStoreItem;
}

/** A student's purchase, as the student's own session sends it. */
async function buy(playwright: PlaywrightWorkerArgs['playwright'], baseURL: string, student: TestStudent, item: AdminStoreItem) {
  const session: APIRequestContext = await playwright.request.newContext({ baseURL });
  await loginViaApi(session, student);
  const response = await session.post(`/api/store/items/${item.id}/orders`, { headers: { 'Idempotency-Key': randomUUID() } });
  expect(response.status(), await response.text()).toBe(201);
  const { order } = (await response.json()) as { order: { id: string } };
  await session.dispose();
  return order;
}

async function catalogueNames(school: School): Promise<string[]> {
  return (await getJson<AdminStoreItem[]>(school.admin, '/api/admin/store/items')).map((item) => item.name);
}

/** The page scrolls only downwards: nothing is wider than the screen. */
async function expectNoSideways(page: Page) {
  const { scroll, width } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, width: window.innerWidth }));
  expect(scroll).toBeLessThanOrEqual(width);
}

for (const size of SIZES) {
  const phone = size.width < 500;
  test.describe(`${size.width}×${size.height}`, () => {
    test.use({ viewport: size, isMobile: phone, hasTouch: phone });

    test('the coordination creates, edits, reorders by keyboard and deletes items', async ({ page, school }) => {
      const name = `Caderno ${token()}`;
      await loginViaApi(page.context(), 'admin');
      await navigate(page, SCREEN);
      await expect(page.getByRole('heading', { level: 1, name: 'Loja' })).toBeVisible();

      // The form judges with the server's schema: an empty name and price are refused beside their fields.
      await page.getByRole('button', { name: 'Novo item' }).first().click();
      const dialog = page.getByRole('dialog', { name: 'Novo item' });
      await expect(dialog).toBeVisible();
      await dialog.getByRole('button', { name: 'Criar item' }).click();
      await expect(dialog.getByText('Informe o nome do item')).toBeVisible();
      await expect(dialog.getByLabel('Nome *')).toBeFocused();
      await dialog.getByLabel('Nome *').fill(name);
      await dialog.getByLabel('Descrição').fill('Capa dura, 96 folhas');
      await dialog.getByLabel('Categoria').selectOption({ label: 'Materiais' });
      await dialog.getByLabel('Preço *').fill('1,5');
      await dialog.getByRole('button', { name: 'Criar item' }).click();
      await expect(dialog.getByText('Informe um preço válido (número inteiro maior que zero)')).toBeVisible();
      await dialog.getByLabel('Preço *').fill('12');
      await dialog.getByLabel('Ilimitado').uncheck();
      await dialog.getByLabel('Unidades em estoque').fill('10');
      await dialog.getByLabel('Período').selectOption('week');
      await dialog.getByLabel('Quantidade máxima').fill('2');
      await dialog.getByLabel('Escolher turmas').check();
      await dialog.getByLabel(TEST_GRADE).check();
      // The picture, picked from the Data-Base with its picker.
      await dialog.getByRole('button', { name: 'Escolher do Data-Base' }).click();
      await dialog.getByRole('list', { name: 'Imagens' }).getByRole('button').first().click();
      await expect(dialog.getByRole('list', { name: 'Imagens' })).toBeHidden();
      await expectNoSeriousA11yViolations(page, { within: '[role="dialog"]' });
      await dialog.getByRole('button', { name: 'Criar item' }).click();
      await expect(page.getByText(`Item '${name}' criado`)).toBeVisible();
      await expect(dialog).toBeHidden();

      const row = page.getByRole('list', { name: 'Itens do catálogo' }).getByRole('listitem').filter({ hasText: name });
      await expect(row.getByText('12 M$')).toBeVisible();
      await expect(row.getByText('10 de 10 em estoque')).toBeVisible();
      await expect(row.getByText('Máx. 2 por semana')).toBeVisible();
      await expect(row.getByText(TEST_GRADE)).toBeVisible();
      const saved = (await getJson<AdminStoreItem[]>(school.admin, '/api/admin/store/items')).find((item) => item.name === name)!;
      expect(saved).toMatchObject({ price: 12, stock: 10, limit: { count: 2, period: 'week' }, category: 'material', active: true });
      expect(saved.imageId).not.toBeNull();
      // The row shows the picture itself, loaded through the store's image route (lazily: once the row is in view).
      await row.scrollIntoViewIfNeeded();
      await expect.poll(() => row.locator('img').evaluate((image: HTMLImageElement) => image.naturalWidth)).toBeGreaterThan(0);

      // Edit: the price changes.
      await row.getByRole('button', { name: `Editar ${name}` }).click();
      const edit = page.getByRole('dialog', { name: 'Editar item' });
      await edit.getByLabel('Preço *').fill('15');
      await edit.getByRole('button', { name: 'Salvar alterações' }).click();
      await expect(page.getByText(`Item '${name}' atualizado`)).toBeVisible();
      await expect(row.getByText('15 M$')).toBeVisible();

      // Reorder by keyboard: a second item moves above the first with Enter on its arrow, and keeps the focus.
      const second = await createItem(school, { name: `Borracha ${token()}` });
      const secondRow = page.getByRole('list', { name: 'Itens do catálogo' }).getByRole('listitem').filter({ hasText: second.name });
      const up = secondRow.getByRole('button', { name: `Mover ${second.name} para cima` });
      await expect(up).toBeVisible();
      const before = await catalogueNames(school);
      expect(before.indexOf(second.name)).toBeGreaterThan(before.indexOf(name));
      // Other tests' items may lie between the two: as many moves as it takes (a few at most).
      const above = (names: string[]) => names.indexOf(second.name) < names.indexOf(name);
      for (let moves = 0; moves < 10 && !above(await catalogueNames(school)); moves++) {
        await up.focus();
        await page.keyboard.press('Enter');
        await expect(page.getByText(new RegExp(`${second.name} movido para a posição`))).toBeAttached();
        await expect(secondRow.getByRole('button', { name: /^Mover / }).and(page.locator(':focus'))).toHaveCount(1);
      }
      expect(above(await catalogueNames(school))).toBe(true);

      // Deactivate, then delete (an item without orders is deleted for good).
      await row.getByRole('button', { name: `Desativar ${name}` }).click();
      await expect(row.getByText('Inativo')).toBeVisible();
      // The removal stands out from the other actions (in red).
      const removal = row.getByRole('button', { name: `Excluir ${name}` });
      const colorOf = (button: Locator) => button.evaluate((element) => getComputedStyle(element).color);
      expect(await colorOf(removal)).not.toBe(await colorOf(row.getByRole('button', { name: `Editar ${name}` })));
      await removal.click();
      await page.getByRole('dialog', { name: 'Excluir item' }).getByRole('button', { name: 'Excluir' }).click();
      await expect(page.getByText(`Item '${name}' excluído`)).toBeVisible();
      await expect(row).toHaveCount(0);
      await expectNoSideways(page);
      await expectNoSeriousA11yViolations(page);
    });

    test('the queue: a new order appears live; deliver one, refuse one with a reason, deliver several', async ({
      page,
      school,
      playwright,
      baseURL,
    }) => {
      test.slow(); // three students and five purchases set up
      const item = await createItem(school, { name: `Sessão de jogos ${token()}`, price: 7 });
      const students = [await school.createStudent(), await school.createStudent(), await school.createStudent()];
      const [ana, bento, cora] = students as [TestStudent, TestStudent, TestStudent];
      await buy(playwright, baseURL!, ana, item);
      await loginViaApi(page.context(), 'admin');
      await navigate(page, `${SCREEN}?aba=pedidos&item=${item.id}`);
      await expect(page.getByRole('tab', { name: 'Pedidos' })).toHaveAttribute('aria-selected', 'true');
      const queue = page.getByRole('list', { name: 'Pedidos' });
      const orderOf = (student: TestStudent) => queue.getByRole('listitem').filter({ hasText: student.studentId });
      await expect(orderOf(ana)).toBeVisible();

      // Live: orders made while the screen is open show without a reload.
      await buy(playwright, baseURL!, bento, item);
      await buy(playwright, baseURL!, cora, item);
      await buy(playwright, baseURL!, cora, item);
      await expect(orderOf(bento)).toBeVisible();
      await expect(orderOf(cora)).toHaveCount(2);

      // Deliver one.
      await orderOf(ana)
        .getByRole('button', { name: `Entregar pedido de ${ana.name}: ${item.name}` })
        .click();
      await expect(page.getByText('Pedido entregue')).toBeVisible();
      // The queue opens on the pending orders: the delivered one leaves it.
      await expect(orderOf(ana)).toHaveCount(0);

      // Refuse one: the reason is asked for, the student sees it and gets the price back.
      const before = await school.balances(bento);
      await orderOf(bento)
        .getByRole('button', { name: `Recusar pedido de ${bento.name}: ${item.name}` })
        .click();
      const refuse = page.getByRole('dialog', { name: 'Recusar pedido' });
      await refuse.getByRole('button', { name: 'Recusar pedido' }).click();
      await expect(refuse.getByText('Informe o motivo da recusa')).toBeVisible();
      await expectNoSeriousA11yViolations(page, { within: '[role="dialog"]' });
      await refuse.getByLabel('Motivo da recusa *').fill('Sala de jogos em reforma');
      await refuse.getByRole('button', { name: 'Recusar pedido' }).click();
      await expect(page.getByText('Pedido recusado: Sala de jogos em reforma')).toBeVisible();
      await expect(orderOf(bento)).toHaveCount(0);
      expect((await school.balances(bento)).meritus).toBe(before.meritus + 7);

      // Deliver several: both of Cora's, selected.
      for (const box of await orderOf(cora).getByRole('checkbox').all()) await box.check();
      await page.getByRole('button', { name: 'Entregar selecionados (2)' }).click();
      await expect(page.getByText('2 pedidos entregues')).toBeVisible();
      await expect(page.getByText('Nenhum pedido encontrado')).toBeVisible();

      // Every status: the four orders with their outcome, the refusal's reason with it.
      await page.getByLabel('Status').selectOption('all');
      await expect(page).toHaveURL(/status=all/);
      await expect(queue.getByRole('listitem')).toHaveCount(4);
      await expect(orderOf(bento).getByText('Motivo: Sala de jogos em reforma')).toBeVisible();
      await expect(orderOf(cora).getByText('Entregue', { exact: true })).toHaveCount(2);
      const orders = await getJson<AdminOrdersPage>(school.admin, `/api/admin/store/orders?item=${item.id}`);
      expect(orders.items.map((order) => order.status).sort()).toEqual(['delivered', 'delivered', 'delivered', 'refused']);
      await expectNoSideways(page);
      await expectNoSeriousA11yViolations(page);
    });

    test("a teacher reads the catalogue, handles their turmas' orders only, delivers them all and downloads the pick list", async ({
      page,
      school,
      playwright,
      baseURL,
    }) => {
      test.slow();
      const item = await createItem(school, { name: `Fone de ouvido ${token()}`, price: 9 });
      const mine = await school.createStudent({ grade: TEST_GRADE });
      const other = await school.createStudent({ grade: '2º EM - Turma C' });
      await buy(playwright, baseURL!, mine, item);
      await buy(playwright, baseURL!, mine, item);
      await buy(playwright, baseURL!, other, item);
      const teacher = await school.createTeacher([TEST_GRADE]);
      await loginViaApi(page.context(), teacher);
      await navigate(page, SCREEN);

      // The catalogue, read-only.
      await expect(page.getByText('Somente leitura: a coordenação cuida do catálogo.')).toBeVisible();
      await expect(page.getByRole('button', { name: 'Novo item' })).toHaveCount(0);
      const row = page.getByRole('list', { name: 'Itens do catálogo' }).getByRole('listitem').filter({ hasText: item.name });
      await expect(row).toBeVisible();
      await expect(row.getByRole('button')).toHaveCount(0);
      await expectNoSeriousA11yViolations(page);

      // The queue: their turma's student only; 'Entregar todos do filtro' gathers the filter's pending orders.
      await page.getByRole('tab', { name: 'Pedidos' }).click();
      await page.getByLabel('Item').selectOption({ label: item.name });
      const queue = page.getByRole('list', { name: 'Pedidos' });
      await expect(queue.getByRole('listitem').filter({ hasText: mine.studentId })).toHaveCount(2);
      await expect(queue.getByText(other.name)).toHaveCount(0);
      await page.getByRole('button', { name: 'Entregar todos do filtro' }).click();
      const confirm = page.getByRole('dialog', { name: 'Entregar pedidos' });
      await expect(confirm.getByText('Marcar como entregues 2 pedidos pendentes deste filtro?')).toBeVisible();
      await confirm.getByRole('button', { name: 'Entregar' }).click();
      await expect(page.getByText('2 pedidos entregues')).toBeVisible();
      const orders = await getJson<AdminOrdersPage>(school.admin, `/api/admin/store/orders?item=${item.id}`);
      expect(orders.items.map((order) => [order.student?.studentId, order.status]).sort()).toEqual(
        [
          [mine.studentId, 'delivered'],
          [mine.studentId, 'delivered'],
          [other.studentId, 'pending'],
        ].sort(),
      );

      // The pick list of their turma.
      await page.getByRole('button', { name: 'Lista de entrega' }).click();
      const pickList = page.getByRole('dialog', { name: 'Lista de entrega' });
      await expect(pickList.getByLabel('Turma')).toHaveValue(/.+/);
      await expectNoSeriousA11yViolations(page, { within: '[role="dialog"]' });
      const download = page.waitForEvent('download');
      await pickList.getByRole('link', { name: 'Baixar PDF' }).click();
      expect((await download).suggestedFilename()).toMatch(/^lista-de-entrega-1-em-turma-b-\d{4}-\d{2}-\d{2}\.pdf$/);
      await expectNoSideways(page);
    });
  });
}
