import { randomUUID } from 'node:crypto';
import type { APIRequestContext, Page } from '@playwright/test';
import { expectNoSeriousA11yViolations } from './axe.ts';
import { expect, getJson, loginViaApi, navigate, TEST_GRADE, test, withoutLiveEvents, type School } from './fixtures.ts';

/** The student's Loja (issue 35): the catalogue, buying, refusals, 'Meus pedidos', turma goals, the history and the goal card. */

const SIZES = [
  { name: 'desktop', viewport: { width: 1440, height: 900 }, phone: false },
  { name: 'phone', viewport: { width: 390, height: 844 }, phone: true },
] as const;
type Size = (typeof SIZES)[number];

type Item = { id: string; name: string };
type ItemOptions = {
  price?: number;
  currency?: 'meritus' | 'estelecas';
  stock?: number | null;
  limit?: { count: number; period: 'week' | 'month' | 'year' | 'ever' } | null;
  category?: 'privilege' | 'material' | 'experience' | 'turma';
  description?: string;
  goal?: number;
  deadline?: string;
};
type MyOrder = { id: string; itemId: string; status: string };

let testTurmaId: Promise<string> | undefined;

/** The turma of the tests' students: every item here is for it alone, so the demo student's screens never list them. */
function turmaOfTests(admin: APIRequestContext): Promise<string> {
  testTurmaId ??= getJson<{ id: string; name: string }[]>(admin, '/api/admin/turmas').then(
    (turmas) => turmas.find((turma) => turma.name === TEST_GRADE)!.id,
  );
  return testTurmaId;
}

/** An item of the catalogue with a name nobody else uses, set up as the coordination would (POST /api/admin/store/items). */
async function createItem(school: School, name: string, options: ItemOptions = {}): Promise<Item> {
  const goal = options.category === 'turma';
  const response = await school.admin.post('/api/admin/store/items', {
    data: {
      name: `${name} ${randomUUID().slice(0, 6)}`,
      description: options.description ?? '',
      price: goal ? null : (options.price ?? 100),
      currency: options.currency ?? 'meritus',
      stock: options.stock ?? null,
      limit: options.limit ?? null,
      category: options.category ?? 'privilege',
      goal: options.goal ?? null,
      deadline: options.deadline ?? null,
      turmaIds: [await turmaOfTests(school.admin)],
    },
  });
  expect(response.status(), await response.text()).toBe(201);
  return (await response.json()) as Item;
}

/** A purchase through the API with a student's session (the same student on another device, or a classmate). */
async function buyViaApi(request: APIRequestContext, item: Item): Promise<string> {
  const response = await request.post(`/api/store/items/${item.id}/orders`, { headers: { 'Idempotency-Key': randomUUID() } });
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as { order: { id: string } }).order.id;
}

/** The card of an item, found by its name. */
const card = (page: Page, item: Item) => page.getByRole('article', { name: item.name });

/** The order of an item in 'Meus pedidos'. */
const orderRow = (page: Page, item: Item) =>
  page.getByRole('list', { name: 'Meus pedidos' }).getByRole('listitem').filter({ hasText: item.name });

const meritus = (value: number) => `${value.toLocaleString('pt-BR')} M$`;

async function screenshot(page: Page, name: string, size: Size): Promise<void> {
  await page.screenshot({ path: `test-results/store-student/${name}-${size.name}.png`, fullPage: true });
}

/** Buttons and links whose label does not fit, and a page wider than the screen. */
function cutOnScreen(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const cut: string[] = [];
    for (const control of document.querySelectorAll<HTMLElement>('button, a[href], [role="tab"]')) {
      const box = control.getBoundingClientRect();
      if (box.width <= 1 || control.closest('.sr-only')) continue;
      const label = control.textContent?.trim() || control.getAttribute('aria-label');
      if (control.scrollWidth > control.clientWidth + 1) cut.push(`rótulo maior que o botão: ${label}`);
      if (box.left < -0.5 || box.right > window.innerWidth + 0.5) cut.push(`botão fora da tela: ${label}`);
      if (box.height < 40 && control.closest('main')) cut.push(`alvo de toque baixo (${Math.round(box.height)}px): ${label}`);
    }
    if (document.documentElement.scrollWidth > window.innerWidth)
      cut.push(`página rola para o lado: ${document.documentElement.scrollWidth}px`);
    return cut;
  });
}

for (const size of SIZES) {
  test.describe(`the student's Loja (${size.viewport.width}×${size.viewport.height})`, () => {
    test.use({ viewport: size.viewport, isMobile: size.phone, hasTouch: size.phone });

    test('a card says the price, the stock and the limit left; buying asks once, the balance drops at once, the order is followed live', async ({
      page,
      context,
      school,
    }) => {
      const student = await school.createStudent({ meritus: 300 });
      const item = await createItem(school, 'Sentar onde quiser por um dia', {
        price: 120,
        stock: 3,
        limit: { count: 1, period: 'week' },
        description: 'Escolha seu lugar na sala por um dia inteiro.',
      });
      const expensive = await createItem(school, 'Fone de ouvido', { price: 500, category: 'material' });
      await loginViaApi(context, student);
      await navigate(page, '/student/loja');

      const mine = card(page, item);
      await expect(mine).toContainText('120 M$');
      await expect(mine).toContainText('Últimas 3 unidades');
      await expect(mine).toContainText('Você pode comprar mais 1 esta semana');
      await expect(mine).toContainText('Privilégios');
      // Short of the price: dimmed, with what is missing and how far the balance has come.
      await expect(card(page, expensive)).toContainText('Faltam 200 M$');
      await expect(card(page, expensive).getByRole('progressbar')).toHaveAttribute('aria-valuenow', '60');
      await expect(card(page, expensive).getByRole('button', { name: 'Comprar' })).toBeDisabled();
      expect(await cutOnScreen(page)).toEqual([]);
      await expectNoSeriousA11yViolations(page);
      await screenshot(page, 'catalogue', size);

      await mine.getByRole('button', { name: 'Comprar' }).click();
      const dialog = page.getByRole('dialog', { name: 'Confirmar compra' });
      await expect(dialog).toContainText(item.name);
      await expect(dialog).toContainText('120 M$');
      await expect(dialog.getByTestId('purchase-summary')).toContainText(`Saldo após a compra${meritus(180)}`);
      await expectNoSeriousA11yViolations(page, { within: '[role="dialog"]' });
      await screenshot(page, 'confirm-purchase', size);
      // A double click buys once: the dialog's button holds the second click, and the Idempotency-Key the retries.
      await dialog.getByRole('button', { name: 'Confirmar compra' }).dblclick();
      await expect(page.getByText('Pedido realizado! Aguarde a entrega.')).toBeVisible();
      await expect(dialog).toBeHidden();
      await expect(page.getByTestId('store-balance-meritus')).toHaveText(meritus(180));
      await expect(mine).toContainText('Limite de 1 por semana atingido');
      await expect(mine.getByRole('button', { name: 'Comprar' })).toBeDisabled();
      expect((await school.balances(student)).meritus).toBe(180);

      await page.getByRole('tab', { name: /Meus pedidos/ }).click();
      await expect(page.getByRole('tab', { name: 'Meus pedidos (1)' })).toBeVisible();
      const row = orderRow(page, item);
      await expect(row).toHaveCount(1);
      await expect(row).toContainText('Pendente');
      await expect(row).toContainText('120 M$');
      const orders = await getJson<MyOrder[]>(page, '/api/me/orders');
      expect(orders.filter((order) => order.itemId === item.id)).toHaveLength(1);

      // The teacher delivers it: the status changes on screen without a reload.
      const delivered = await school.admin.post(`/api/admin/store/orders/${orders[0]!.id}/deliver`);
      expect(delivered.status(), await delivered.text()).toBe(200);
      await expect(row).toContainText('Entregue');
      await expect(row.getByRole('button', { name: /Cancelar pedido/ })).toHaveCount(0);
      expect(await cutOnScreen(page)).toEqual([]);
      await expectNoSeriousA11yViolations(page);
      await screenshot(page, 'my-orders', size);
    });

    test("refusals say the server's reason: sold out, limit, balance, unavailable", async ({
      page,
      context,
      school,
      playwright,
      baseURL,
    }) => {
      const student = await school.createStudent({ meritus: 1000 });
      const classmate = await school.createStudent({ meritus: 1000 });
      const lastUnit = await createItem(school, 'Caderno', { price: 50, stock: 1, category: 'material' });
      const limited = await createItem(school, 'Lanche especial', {
        price: 40,
        limit: { count: 1, period: 'week' },
        category: 'experience',
      });
      const withdrawn = await createItem(school, 'Adesivos', { price: 10, category: 'material' });
      const pricey = await createItem(school, 'Passeio', { price: 900, category: 'experience' });
      await loginViaApi(context, student);
      // The screen keeps what it read until it asks again: each refusal comes from the server, not from the card.
      await withoutLiveEvents(page);
      const other = await playwright.request.newContext({ baseURL });
      await loginViaApi(other, classmate);

      /** Opens the Loja as it is, lets `meanwhile` change the school, then buys `item` from the card read before. */
      const refused = async (item: Item, meanwhile: () => Promise<unknown>, message: string) => {
        await navigate(page, '/student/loja');
        const buy = card(page, item).getByRole('button', { name: 'Comprar' });
        await expect(buy).toBeEnabled();
        await meanwhile();
        await buy.click();
        const dialog = page.getByRole('dialog', { name: 'Confirmar compra' });
        await dialog.getByRole('button', { name: 'Confirmar compra' }).click();
        await expect(page.locator('[data-rht-toaster]').getByText(message, { exact: true })).toBeVisible();
        await expect(dialog).toBeHidden();
      };

      await refused(lastUnit, () => buyViaApi(other, lastUnit), 'Esgotado');
      // The catalogue is read again after a refusal: the card says why now.
      await expect(card(page, lastUnit)).toContainText('Esgotado');
      await expect(card(page, lastUnit).getByRole('button', { name: 'Comprar' })).toBeDisabled();

      await refused(limited, () => buyViaApi(page.request, limited), 'Limite de 1 por semana atingido');
      await expect(card(page, limited)).toContainText('Limite de 1 por semana atingido');

      await refused(
        withdrawn,
        async () => {
          const response = await school.admin.patch(`/api/admin/store/items/${withdrawn.id}`, { data: { active: false } });
          expect(response.status(), await response.text()).toBe(200);
        },
        'Item indisponível',
      );
      await expect(card(page, withdrawn)).toHaveCount(0);

      await refused(
        pricey,
        async () => {
          const response = await school.admin.post(`/api/admin/students/${student.id}/meritus`, {
            data: { type: 'admin_remove', amount: 950, description: 'Correção' },
            headers: { 'Idempotency-Key': randomUUID() },
          });
          expect(response.status(), await response.text()).toBe(201);
        },
        'Saldo insuficiente',
      );
      await other.dispose();
      // Only the purchase made on the other device went through: 1000 - 40 - 950.
      expect((await school.balances(student)).meritus).toBe(10);
      const orders = await getJson<MyOrder[]>(page, '/api/me/orders');
      expect(orders.map((order) => order.itemId)).toEqual([limited.id]);
    });

    test("a pending order is cancelled and refunded; a refused one says the teacher's reason; the history shows both", async ({
      page,
      context,
      school,
    }) => {
      const student = await school.createStudent({ meritus: 500 });
      const kept = await createItem(school, 'Ajudante do professor', { price: 150 });
      const refused = await createItem(school, 'Kit de canetas', { price: 70, category: 'material' });
      await loginViaApi(context, student);
      await buyViaApi(page.request, kept);
      const refusedOrder = await buyViaApi(page.request, refused);
      await navigate(page, '/student/loja?aba=pedidos');

      const row = orderRow(page, kept);
      await expect(row).toContainText('Pendente');
      await row.getByRole('button', { name: `Cancelar pedido de ${kept.name}` }).click();
      const dialog = page.getByRole('dialog', { name: 'Cancelar pedido?' });
      await expect(dialog).toContainText(kept.name);
      await expect(dialog).toContainText('150 M$');
      await expectNoSeriousA11yViolations(page, { within: '[role="dialog"]' });
      await screenshot(page, 'cancel-order', size);
      await dialog.getByRole('button', { name: 'Cancelar pedido' }).click();
      await expect(page.getByText('Pedido cancelado. 150 M$ devolvidos.')).toBeVisible();
      await expect(row).toContainText('Cancelado');
      await expect(page.getByTestId('store-balance-meritus')).toHaveText(meritus(430));

      const refusal = await school.admin.post(`/api/admin/store/orders/${refusedOrder}/refuse`, {
        data: { reason: 'Acabou o estoque da papelaria' },
        headers: { 'Idempotency-Key': randomUUID() },
      });
      expect(refusal.status(), await refusal.text()).toBe(200);
      await expect(orderRow(page, refused)).toContainText('Recusado');
      await expect(orderRow(page, refused)).toContainText('Pedido recusado: Acabou o estoque da papelaria');
      await expect(page.getByTestId('store-balance-meritus')).toHaveText(meritus(500));

      // The history: purchases lower, refunds raise, each with its own label.
      await navigate(page, '/student/recent-operations');
      const history = page.getByRole('list', { name: /^Operações de/ });
      const purchase = history.getByRole('listitem').filter({ hasText: `Compra: ${kept.name}` });
      await expect(purchase).toContainText(`-${meritus(150)}`);
      await expect(purchase).toContainText('na Loja');
      const refund = history.getByRole('listitem').filter({ hasText: `Devolução: ${kept.name}` });
      await expect(refund).toContainText(`+${meritus(150)}`);
      await expect(refund).toContainText('da Loja');
      await page.getByLabel('Tipo').selectOption('store');
      await expect(history.getByRole('listitem')).toHaveCount(4);
      await screenshot(page, 'history', size);
      await page.getByLabel('Tipo').selectOption('credit');
      await expect(page.getByText(`Devolução: ${kept.name}`)).toHaveCount(0);

      await navigate(page, '/student');
      const recent = page.getByRole('list', { name: 'Transações recentes' });
      await expect(recent.getByRole('listitem').filter({ hasText: `Devolução: ${refused.name}` })).toContainText(`+${meritus(70)}`);
    });

    test('a turma goal shows its progress, the own contribution and the deadline; contributing is checked, confirmed and live', async ({
      page,
      context,
      school,
      playwright,
      baseURL,
    }) => {
      const student = await school.createStudent({ meritus: 250 });
      const classmate = await school.createStudent({ meritus: 500 });
      const goal = await createItem(school, 'Sessão de cinema da turma', {
        category: 'turma',
        goal: 400,
        deadline: '2099-12-15',
        description: 'Um filme com pipoca para a turma toda.',
      });
      await loginViaApi(context, student);
      await navigate(page, '/student/loja');
      const goalCard = card(page, goal);
      await expect(goalCard).toContainText('Meta da turma');
      await expect(goalCard).toContainText('0 M$ de 400 M$');
      await expect(goalCard).toContainText('Sua contribuição:0 M$');
      await expect(goalCard).toContainText('Prazo:até 15/12/2099');

      await goalCard.getByRole('button', { name: 'Contribuir' }).click();
      const form = page.getByRole('dialog', { name: `Contribuir para ${goal.name}` });
      await expect(form).toContainText('Faltam 400 M$ para a meta');
      const amount = form.getByLabel('Valor (M$)');
      await amount.fill('300');
      await expect(form.getByRole('alert')).toHaveText('Saldo insuficiente');
      await amount.fill('0');
      await form.getByRole('button', { name: 'Continuar' }).click();
      await expect(form.getByRole('alert')).toHaveText('O valor deve ser maior que zero');
      await amount.fill('100');
      await expect(form.getByRole('alert')).toHaveCount(0);
      await expectNoSeriousA11yViolations(page, { within: '[role="dialog"]' });
      await screenshot(page, 'contribute', size);
      await form.getByRole('button', { name: 'Continuar' }).click();
      const confirm = page.getByRole('dialog', { name: 'Confirmar contribuição' });
      await expect(confirm).toContainText(goal.name);
      await expect(confirm).toContainText(`Saldo após${meritus(150)}`);
      await confirm.getByRole('button', { name: 'Contribuir' }).click();
      await expect(page.getByText(`Contribuição de 100 M$ para ${goal.name}`)).toBeVisible();
      await expect(page.getByTestId('store-balance-meritus')).toHaveText(meritus(150));
      await expect(goalCard).toContainText('100 M$ de 400 M$');
      await expect(goalCard).toContainText('Sua contribuição:100 M$');
      await expect(goalCard.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '25');

      // A classmate's contribution reaches this screen by itself.
      const other = await playwright.request.newContext({ baseURL });
      await loginViaApi(other, classmate);
      const response = await other.post(`/api/store/items/${goal.id}/contributions`, {
        data: { amount: 200 },
        headers: { 'Idempotency-Key': randomUUID() },
      });
      expect(response.status(), await response.text()).toBe(201);
      await other.dispose();
      await expect(goalCard).toContainText('300 M$ de 400 M$');
      await expect(goalCard).toContainText('Sua contribuição:100 M$');
      expect(await cutOnScreen(page)).toEqual([]);
      await expectNoSeriousA11yViolations(page);
      await screenshot(page, 'goal', size);

      // More than the goal still needs is refused before sending; the rest reaches it.
      await goalCard.getByRole('button', { name: 'Contribuir' }).click();
      await amount.fill('150');
      await expect(form.getByRole('alert')).toHaveText('A contribuição passa do que falta para a meta');
      await amount.fill('100');
      await form.getByRole('button', { name: 'Continuar' }).click();
      await confirm.getByRole('button', { name: 'Contribuir' }).click();
      await expect(page.locator('[data-rht-toaster]').getByText('Meta atingida!', { exact: true })).toBeVisible();
      await expect(goalCard).toContainText('400 M$ de 400 M$');
      await expect(goalCard.getByRole('button', { name: 'Contribuir' })).toHaveCount(0);

      // The history shows the contributions with their own mark.
      await navigate(page, '/student/recent-operations');
      const rows = page
        .getByRole('list', { name: /^Operações de/ })
        .getByRole('listitem')
        .filter({ hasText: 'para a meta da turma' });
      await expect(rows).toHaveCount(2);
      await expect(rows.first()).toContainText(`-${meritus(100)}`);
    });

    test("an item chosen as the goal leads the dashboard's goal card, on every device", async ({ page, context, school, browser }) => {
      const student = await school.createStudent({ meritus: 310 });
      const item = await createItem(school, 'Fone de ouvido', { price: 500, category: 'material' });
      await loginViaApi(context, student);
      await navigate(page, '/student');
      await expect(page.getByTestId('card-goal')).toContainText('Meta de Méritus');
      await page.getByRole('link', { name: /Loja/ }).filter({ hasText: 'Troque' }).click();
      await expect(page).toHaveURL('/student/loja');

      const choose = card(page, item).getByRole('button', { name: 'Definir meta' });
      await choose.click();
      await expect(card(page, item)).toContainText('Minha meta');
      await expect(card(page, item).getByRole('button', { name: 'Remover meta' })).toBeVisible();
      await navigate(page, '/student');
      await expect(page.getByTestId('card-goal')).toContainText(`Meta: ${item.name}`);
      await expect(page.getByTestId('card-goal')).toContainText('62%');
      await expect(page.getByTestId('card-goal')).toContainText('Faltam 190 M$ de 500 M$');
      await screenshot(page, 'dashboard-goal', size);

      // Another device: a new session of the same student.
      const other = await browser.newContext({ viewport: size.viewport });
      await loginViaApi(other, student);
      const otherPage = await other.newPage();
      await navigate(otherPage, '/student');
      await expect(otherPage.getByTestId('card-goal')).toContainText(`Meta: ${item.name}`);
      await other.close();

      await navigate(page, '/student/loja');
      await card(page, item).getByRole('button', { name: 'Remover meta' }).click();
      await expect(card(page, item).getByRole('button', { name: 'Definir meta' })).toBeVisible();
      await expect(card(page, item)).not.toContainText('Minha meta');
      await navigate(page, '/student');
      await expect(page.getByTestId('card-goal')).toContainText('Meta de Méritus');
    });

    test('empty catalogue, skeletons while loading and a failed load', async ({ page, context, school }) => {
      const student = await school.createStudent({ meritus: 10 });
      await loginViaApi(context, student);
      await withoutLiveEvents(page);
      let release: () => void = () => {};
      const held = new Promise<void>((resolve) => (release = resolve));
      await page.route('**/api/store/items', async (route) => {
        await held;
        await route.fulfill({ json: [] });
      });
      await navigate(page, '/student/loja');
      await expect(page.getByTestId('store-loading')).toBeVisible();
      release();
      await expect(page.getByText('Nenhum item na loja no momento')).toBeVisible();
      await page.getByRole('tab', { name: /Meus pedidos/ }).click();
      await expect(page.getByText('Nenhum pedido ainda')).toBeVisible();
      await screenshot(page, 'empty-orders', size);

      await page.unroute('**/api/store/items');
      await page.route('**/api/store/items', (route) =>
        route.fulfill({ status: 500, json: { error: { code: 'internal', message: 'Erro interno. Tente novamente.' } } }),
      );
      await page.getByRole('tab', { name: 'Catálogo' }).click();
      await page.reload();
      await expect(page.getByText('Não foi possível carregar a loja')).toBeVisible({ timeout: 15_000 });
      await page.unroute('**/api/store/items');
      await page.getByRole('button', { name: 'Tentar novamente' }).click();
      await expect(page.getByText('Não foi possível carregar a loja')).toBeHidden();
    });
  });
}
