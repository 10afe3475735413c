import type { BrowserContext, Page } from '@playwright/test';
import type { PublicStudent } from '../src/shared/auth.ts';
import { expectNoSeriousA11yViolations } from './axe.ts';
import {
  expect,
  getJson,
  loginViaApi,
  navigate,
  test,
  withoutFirstAnswers,
  withoutLiveEvents,
  type RankingAnswer,
  type RankingRow,
} from './fixtures.ts';

type Summary = {
  meritus: number;
  totalEarned: number;
  estelecas: number;
  rank: { position: number; total: number; positionBefore: number };
  goal: { target: number; percent: number; remaining: number };
  recent: { meritusNet: number; earned: number; estelecasNet: number };
  estelecasStats: { received: number; receivedRecent: number; sent: number; deducted: number; peak: number };
};
/** A page of GET /api/students/directory. */
type DirectoryPage = { items: PublicStudent[]; total: number };
type Me = { role: 'student'; student: PublicStudent & { email: string | null; birthDate: string | null; totalEarned: number } };

const STUDENT_SCREENS = [
  '/student',
  '/student/profile',
  '/student/transfer',
  '/student/estelecas',
  '/student/loja',
  '/student/ranking',
  '/student/recent-operations',
];

const brl = (value: number) => value.toLocaleString('pt-BR');
const meritus = (value: number) => `${brl(value)} M$`;

function failWith500(page: Page, pattern: string) {
  return page.route(pattern, (route) =>
    route.fulfill({
      status: 500,
      contentType: 'application/json',
      body: JSON.stringify({ error: { code: 'internal', message: 'Erro interno. Tente novamente.' } }),
    }),
  );
}

test.describe('dashboard', () => {
  test('greets the student and shows the real figures, tags, shortcuts and the last 5 operations', async ({ page, context, school }) => {
    const student = await school.createStudent({ meritus: 500 });
    for (let i = 1; i <= 6; i++) await school.award(student, 'meritus', i, `Tarefa ${i}`);
    await loginViaApi(context, student);
    await navigate(page, '/student');

    await expect(page.getByRole('heading', { level: 1, name: `Olá, ${student.name.split(' ')[0]}!` })).toBeVisible();
    // 500 + 1 + … + 6; the 7-day change counts the initial balance too.
    await expect(page.getByTestId('card-meritus')).toContainText(meritus(521));
    await expect(page.getByTestId('card-meritus')).toContainText(`+${meritus(521)} em 7 dias`);
    await expect(page.getByTestId('card-earned')).toContainText(meritus(521));
    await expect(page.getByTestId('card-goal')).toContainText('26%');
    // The rank is the competition rank among all students: one more than those with more Méritus.
    // Other tests add and change students meanwhile, so the page is compared with fresh answers until they agree.
    await expect(async () => {
      const [summary, ranking] = await Promise.all([
        getJson<Summary>(page, '/api/me/summary'),
        getJson<RankingAnswer>(page, '/api/ranking?around=me'),
      ]);
      expect(ranking.me).toMatchObject({ id: student.id, meritus: 521 });
      expect(summary.rank.position).toBe(ranking.me!.position);
      expect(summary.rank.total).toBe(ranking.total);
      await expect(page.getByTestId('card-rank')).toContainText(`#${summary.rank.position}`, { timeout: 1_000 });
      await expect(page.getByTestId('card-rank')).toContainText(`de ${summary.rank.total}`, { timeout: 1_000 });
    }).toPass({ timeout: 15_000 });

    // One tag per kind (the newest holder), each with its days left.
    const tags = page.getByTestId('active-tag');
    const kinds = await tags.evaluateAll((items) => items.map((item) => item.querySelector('p')?.textContent));
    expect(new Set(kinds).size).toBe(kinds.length);
    for (const tag of await tags.all()) await expect(tag).toContainText(/Falta(m)? \d+ dias?/);

    const recent = page.getByRole('list', { name: 'Transações recentes' }).getByRole('listitem');
    await expect(recent).toHaveCount(5);
    await expect(recent.first()).toContainText('Tarefa 6');
    await expect(recent.first()).toContainText(`+${meritus(6)}`);
    await expect(recent.last()).toContainText('Tarefa 2');

    await page.getByRole('link', { name: /Transferir M\$ Envie/ }).click();
    await expect(page).toHaveURL('/student/transfer');
    await page.goBack();
    await page.getByRole('link', { name: /Ver Ranking/ }).click();
    await expect(page).toHaveURL('/student/ranking');
    await page.goBack();
    await page.getByRole('link', { name: /Meu Perfil Seus dados/ }).click();
    await expect(page).toHaveURL('/student/profile');
  });

  test('empty states and a failed load', async ({ page, context }) => {
    await loginViaApi(context, 'student');
    await withoutLiveEvents(page);
    await withoutFirstAnswers(page);
    await page.route('**/api/tags/active', (route) => route.fulfill({ json: [] }));
    await page.route('**/api/me/transactions?*', (route) => route.fulfill({ json: [] }));
    await failWith500(page, '**/api/me/summary');
    await navigate(page, '/student');
    await expect(page.getByText('Nenhuma tag ativa no momento')).toBeVisible();
    await expect(page.getByText('Nenhuma transação recente')).toBeVisible();
    await expect(page.getByText('Não foi possível carregar seus números')).toBeVisible({ timeout: 10_000 });

    await page.unroute('**/api/me/summary');
    await page.getByRole('button', { name: 'Tentar novamente' }).click();
    await expect(page.getByTestId('card-rank')).toContainText('#');
  });

  test('shows skeletons, not a blank screen, while the figures load', async ({ page, context }) => {
    await loginViaApi(context, 'student');
    await withoutFirstAnswers(page);
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/me/summary', async (route) => {
      await held;
      await route.continue();
    });
    await navigate(page, '/student');
    await expect(page.getByTestId('summary-loading')).toBeVisible();
    release();
    await expect(page.getByTestId('summary-cards')).toBeVisible();
  });

  test('a like is stored on the server: it survives a reload and can be taken back', async ({ page, context, school }) => {
    await loginViaApi(context, await school.createStudent());
    await navigate(page, '/student');
    // The Conselheiro tag: admin-students.spec.ts gives and ends Líder and Anjo tags meanwhile.
    const kind = 'Conselheiro da Semana';
    const holder = (await page.getByTestId('active-tag').filter({ hasText: kind }).locator('p').nth(1).textContent())!;
    const item = page.getByTestId('active-tag').filter({ hasText: kind }).filter({ hasText: holder });
    const button = item.getByRole('button', { name: /^(Curtir|Descurtir) / });
    /** The button's state, and its count as the server has it (other tests like tags too, so the count is read, not assumed). */
    const agrees = async (liked: boolean) => {
      await expect(button).toHaveAttribute('aria-pressed', String(liked));
      await expect(async () => {
        const tags = await getJson<{ likes: number; likedByMe: boolean; student: { name: string } }[]>(page, '/api/tags/active');
        const tag = tags.find((active) => active.student.name === holder && active.likedByMe === liked);
        expect(tag).toBeTruthy();
        await expect(item.getByTestId('like-count')).toHaveText(String(tag!.likes), { timeout: 1_000 });
      }).toPass({ timeout: 10_000 });
    };

    await agrees(false);
    await button.click();
    await agrees(true);
    await page.reload();
    await agrees(true);
    await button.click();
    await agrees(false);
    await page.reload();
    await agrees(false);
  });
});

test.describe('profile', () => {
  test('photo, identity, personal information, statistics and the refresh button', async ({ page, context, school }) => {
    const student = await school.createStudent({ meritus: 250, email: `perfil.${Date.now()}@escola.test`, birthDate: '2009-04-07' });
    await loginViaApi(context, student);
    await navigate(page, '/student/profile');

    await expect(page.getByRole('heading', { level: 1, name: 'Meu Perfil' })).toBeVisible();
    await expect(page.getByRole('heading', { level: 2, name: student.name })).toBeVisible();
    await expect(page.getByText(`Matrícula ${student.studentId} · ${student.grade}`).first()).toBeVisible();
    const info = page.locator('section', { hasText: 'Informações Pessoais' });
    await expect(info).toContainText(/perfil\.\d+@escola\.test/);
    await expect(info).toContainText('07/04/2009');
    await expect(page.getByTestId('profile-stats')).toContainText(meritus(250));
    await expect(async () => {
      const summary = await getJson<Summary>(page, '/api/me/summary');
      await expect(page.getByTestId('profile-stats')).toContainText(`#${summary.rank.position}`, { timeout: 1_000 });
    }).toPass({ timeout: 15_000 });

    await page.getByRole('button', { name: 'Atualizar' }).click();
    await expect(page.getByText('Perfil atualizado')).toBeVisible();
  });

  test("missing values read 'Não informado', a broken photo falls back to initials, and the rank reads N/A when unavailable", async ({
    page,
    context,
  }) => {
    await loginViaApi(context, 'student');
    await withoutFirstAnswers(page);
    await page.route('**/api/auth/me', async (route) => {
      const response = await route.fetch();
      const body = (await response.json()) as Me;
      await route.fulfill({
        json: { ...body, student: { ...body.student, email: null, birthDate: null, photo: '/uploads/nao-existe.jpg?v=9' } },
      });
    });
    await failWith500(page, '**/api/me/summary');
    await navigate(page, '/student/profile');
    await expect(page.getByText('Não informado')).toHaveCount(2);
    const me = await getJson<Me>(page, '/api/auth/me');
    // The image failed, so the avatar is the initials placeholder named after the student.
    await expect(page.locator('main').getByRole('img', { name: me.student.name }).first()).toBeVisible();
    await expect(page.locator('main img[src*="nao-existe"]')).toHaveCount(0);
    await expect(page.getByTestId('profile-stats')).toContainText('N/A', { timeout: 10_000 });
  });
});

test.describe('Méritus transfer', () => {
  test('search, validation messages, and a transfer confirmed that opens its Comprovante', async ({ page, context, school }) => {
    const me = await school.createStudent({ meritus: 40 });
    const target = await school.createStudent({ meritus: 0 });
    await loginViaApi(context, me);
    await navigate(page, '/student/transfer');
    const recipients = page.getByRole('group', { name: 'Destinatário' }).getByRole('radio');
    // The first page of everyone but the student (other tests add classmates meanwhile, so the list is compared with a
    // fresh answer until they agree).
    await expect(async () => {
      const directory = await getJson<DirectoryPage>(page, '/api/students/directory');
      expect(directory.items.some((student) => student.id === me.id)).toBe(false);
      await expect(recipients).toHaveCount(directory.items.length, { timeout: 1_000 });
    }).toPass({ timeout: 15_000 });
    await expect(page.getByRole('radio', { name: new RegExp(me.name) })).toHaveCount(0);

    const search = page.getByRole('searchbox', { name: 'Buscar estudante' });
    await search.fill(
      target.name
        .toUpperCase()
        .normalize('NFD')
        .replace(/[\u0300-\u036f]/g, ''),
    );
    await expect(recipients).toHaveCount(1);
    await search.fill(target.studentId);
    await expect(recipients).toHaveCount(1);
    await search.fill('1º EM - Turma A');
    await expect(async () => {
      const directory = await getJson<DirectoryPage>(page, `/api/students/directory?q=${encodeURIComponent('1º EM - Turma A')}`);
      expect(directory.items.every((s) => s.grade === '1º EM - Turma A')).toBe(true);
      await expect(recipients).toHaveCount(directory.items.length, { timeout: 1_000 });
    }).toPass({ timeout: 15_000 });
    await search.fill('zzz-ninguém');
    await expect(page.getByText('Nenhum estudante encontrado')).toBeVisible();
    await search.fill('');

    const submit = page.getByRole('button', { name: 'Transferir' });
    await submit.click();
    await expect(page.getByText('Preencha todos os campos obrigatórios')).toBeVisible();

    // The first page holds 50 of a school other tests keep growing: the recipient is found by name, as a student would.
    await search.fill(target.name);
    await page.getByRole('radio', { name: new RegExp(target.name) }).check();
    await expect(page.getByTestId('selected-recipient')).toContainText(target.name);
    const amount = page.getByLabel('Valor (M$)');
    await amount.fill('0');
    await submit.click();
    await expect(page.getByText('O valor deve ser maior que zero')).toBeVisible();

    // Typed key by key as on a phone: what was typed stays and is judged, never read as another amount (1,5 → 15).
    for (const typed of ['1,5', '12abc']) {
      await amount.fill('');
      await amount.pressSequentially(typed);
      await expect(amount).toHaveValue(typed);
      await submit.click();
      await expect(page.getByText('O valor deve ser um número inteiro').last()).toBeVisible();
    }
    await expect(page.getByRole('region', { name: 'Seus Méritus' })).toContainText(meritus(40));

    await amount.fill('41');
    await expect(page.getByRole('alert').filter({ hasText: 'Saldo insuficiente' })).toBeVisible();
    await expect(submit).toBeDisabled();

    await amount.fill('2');
    await expect(submit).toBeEnabled();
    await failWith500(page, '**/api/meritus/transfers');
    await submit.click();
    const sheet = page.getByRole('dialog', { name: 'Confirme a transferência' });
    await sheet.getByRole('button', { name: 'Confirmar transferência' }).click();
    await expect(page.getByText('Erro ao realizar transferência')).toBeVisible();
    await page.unroute('**/api/meritus/transfers');
    await sheet.getByRole('button', { name: 'Voltar' }).click();

    await page.getByLabel('Descrição (opcional)').fill('Obrigado pela ajuda!');
    await submit.click();
    await sheet.getByRole('button', { name: 'Confirmar transferência' }).click();
    await expect(page.getByText(`2 M$ transferidos para ${target.name}!`)).toBeVisible();
    await expect(page.getByTestId('receipt')).toContainText('Obrigado pela ajuda!');
    await expect(page.getByRole('region', { name: 'Seus Méritus' })).toContainText(meritus(38));
    expect((await school.balances(target)).meritus).toBe(2);
  });

  test('with nobody to send to, the list says so', async ({ page, context }) => {
    await loginViaApi(context, 'student');
    await page.route(
      (url) => url.pathname === '/api/students/directory',
      (route) => route.fulfill({ json: { items: [], total: 0, page: 1, size: 50 } }),
    );
    await navigate(page, '/student/transfer');
    await expect(page.getByText('Nenhum estudante disponível')).toBeVisible();
  });

  test('the server searches once the typing pauses, and answers a page; Mostrar mais adds the next', async ({ page, context }) => {
    await loginViaApi(context, 'student');
    // Another test's new student would have the list read again on its own, and the requests counted below with it.
    await withoutLiveEvents(page);
    const classmate = (n: number): PublicStudent => ({
      id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
      studentId: String(7700000 + n),
      name: `Colega ${String(n).padStart(2, '0')}`,
      grade: '1º EM - Turma A',
      photo: null,
      meritus: 0,
      estelecas: 0,
      tags: [],
    });
    const asked: URLSearchParams[] = [];
    await page.route(
      (url) => url.pathname === '/api/students/directory',
      (route) => {
        const query = new URL(route.request().url()).searchParams;
        asked.push(query);
        const number = Number(query.get('page') ?? '1');
        const items = Array.from({ length: number === 1 ? 50 : 10 }, (_, i) => classmate((number - 1) * 50 + i + 1));
        return route.fulfill({ json: { items, total: 60, page: number, size: 50 } });
      },
    );
    await navigate(page, '/student/transfer');
    const recipients = page.getByRole('group', { name: 'Destinatário' }).getByRole('radio');
    await expect(recipients).toHaveCount(50);
    await expect(page.getByText('Mostrando 50 de 60 estudantes')).toBeVisible();
    await page.getByRole('button', { name: 'Mostrar mais' }).click();
    await expect(recipients).toHaveCount(60);
    await expect(page.getByRole('button', { name: 'Mostrar mais' })).toHaveCount(0);
    expect(asked.map((query) => query.get('page'))).toEqual(['1', '2']);

    // Typed key by key without a pause: one search, for the whole word.
    await page.getByRole('searchbox', { name: 'Buscar estudante' }).pressSequentially('colega');
    await expect.poll(() => asked.filter((query) => query.has('q')).map((query) => query.get('q'))).toEqual(['colega']);
  });

  test('works with the keyboard alone', async ({ page, context, school }) => {
    await loginViaApi(context, await school.createStudent());
    const target = await school.createStudent();
    await navigate(page, '/student/transfer');
    const search = page.getByRole('searchbox', { name: 'Buscar estudante' });
    await search.focus();
    await page.keyboard.type(target.studentId);
    // As a user reads the list before moving on: it filters in a deferred render, and a Tab before that lands on a
    // student the filter then takes away.
    await expect(page.getByRole('radio')).toHaveCount(1);
    await page.keyboard.press('Tab');
    await expect(page.getByRole('button', { name: 'Limpar busca' })).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(page.getByRole('radio', { name: new RegExp(target.name) })).toBeFocused();
    await page.keyboard.press('Space');
    await expect(page.getByRole('radio', { name: new RegExp(target.name) })).toBeChecked();
    await page.keyboard.press('Tab');
    await expect(page.getByLabel('Valor (M$)')).toBeFocused();
    await page.keyboard.type('1');
    await page.keyboard.press('Enter');
    // The confirmation opens on 'Voltar' (the safe choice); Tab reaches 'Confirmar transferência'.
    const sheet = page.getByRole('dialog', { name: 'Confirme a transferência' });
    await expect(sheet.getByRole('button', { name: 'Voltar' })).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(sheet.getByRole('button', { name: 'Confirmar transferência' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page.getByText(`1 M$ transferido para ${target.name}!`)).toBeVisible();
    await expect(page.getByTestId('receipt')).toContainText(target.name);
  });

  test('the recipient sees the transfer in another browser at once, without a reload', async ({ browser, page, context, school }) => {
    await loginViaApi(context, await school.createStudent());
    const baseURL = test.info().project.use.baseURL!;
    const recipientContext = await browser.newContext({ baseURL });
    const recipient = { student: await school.createStudent({ meritus: 10 }) };
    await loginViaApi(recipientContext, recipient.student);
    const recipientPage = await recipientContext.newPage();
    await navigate(recipientPage, '/student');
    await expect(recipientPage.getByTestId('card-meritus')).toContainText(meritus(recipient.student.meritus));
    await recipientPage.evaluate(() => Object.assign(window, { __sameDocument: true }));

    await navigate(page, '/student/transfer');
    await page.getByRole('searchbox', { name: 'Buscar estudante' }).fill(recipient.student.studentId);
    await page.getByRole('radio', { name: new RegExp(recipient.student.name) }).check();
    await page.getByLabel('Valor (M$)').fill('3');
    await page.getByLabel('Descrição (opcional)').fill('Ao vivo para o colega');
    await page.getByRole('button', { name: 'Transferir' }).click();
    await page.getByRole('button', { name: 'Confirmar transferência' }).click();
    await expect(page.getByText(`3 M$ transferidos para ${recipient.student.name}!`)).toBeVisible();

    await expect(recipientPage.getByRole('region', { name: 'Seus Méritus' })).toContainText(meritus(recipient.student.meritus + 3), {
      timeout: 5_000,
    });
    await expect(recipientPage.getByTestId('card-meritus')).toContainText(meritus(recipient.student.meritus + 3));
    await expect(recipientPage.getByRole('list', { name: 'Transações recentes' }).getByRole('listitem').first()).toContainText(
      'Ao vivo para o colega',
    );
    expect(await recipientPage.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
    await recipientContext.close();
  });
});

test.describe('Estelecas', () => {
  test('figures, history, achievements and the transfer dialog with its messages', async ({ page, context, school }) => {
    const me = await school.createStudent({ estelecas: 10 });
    await school.award(me, 'estelecas', 3, 'Projeto de excelência');
    const target = await school.createStudent();
    await loginViaApi(context, me);
    await navigate(page, '/student/estelecas');
    const balance = 13;

    await expect(page.getByTestId('estelecas-stats')).toContainText(brl(balance));
    await expect(page.getByRole('list', { name: 'Histórico de Estelecas' }).getByRole('listitem')).toHaveCount(2);
    const achievements = page.getByTestId('achievement');
    await expect(achievements).toHaveCount(3);
    await expect(achievements.nth(0)).toContainText('Primeira Esteleca');
    await expect(achievements.nth(1)).toContainText('Colecionador');
    await expect(achievements.nth(2)).toContainText('Mestre das Estelecas');
    await expect(achievements.nth(0)).toHaveAttribute('data-earned', 'true');

    await page.getByRole('button', { name: 'Transferir Estelecas' }).click();
    const dialog = page.getByRole('dialog', { name: 'Transferir Estelecas' });
    await expect(dialog).toContainText(`Saldo disponível: ${brl(balance)} Estelecas`);
    await dialog.getByRole('button', { name: 'Transferir' }).click();
    await expect(page.getByText('Preencha todos os campos', { exact: true })).toBeVisible();

    await dialog.getByRole('searchbox', { name: 'Buscar estudante' }).fill(target.studentId);
    await dialog.getByRole('radio', { name: new RegExp(target.name) }).check();
    await dialog.getByLabel('Quantidade').fill(String(balance + 1));
    await dialog.getByRole('button', { name: 'Transferir' }).click();
    await expect(page.getByText('Quantidade inválida ou insuficiente')).toBeVisible();

    await dialog.getByLabel('Quantidade').fill('2');
    await dialog.getByRole('button', { name: 'Transferir' }).click();
    await page.getByRole('button', { name: 'Confirmar transferência' }).click();
    await expect(page.getByText(`2 Estelecas transferidas para ${target.name}`)).toBeVisible();
    await expect(page.getByTestId('receipt')).toContainText(target.name);
    await expect(page.getByRole('region', { name: 'Suas Estelecas' })).toContainText(brl(balance - 2));
    await navigate(page, '/student/estelecas');
    await expect(page.getByRole('list', { name: 'Histórico de Estelecas' }).getByRole('listitem').first()).toContainText('-2 Estelecas');
  });

  test("an empty history, and 'Erro ao carregar histórico de Estelecas' when it fails", async ({ page, context }) => {
    await loginViaApi(context, 'student');
    await page.route('**/api/me/estelecas?*', (route) => route.fulfill({ json: [] }));
    await navigate(page, '/student/estelecas');
    await expect(page.getByText('Nenhuma transação de Estelecas ainda')).toBeVisible();

    await page.unroute('**/api/me/estelecas?*');
    await failWith500(page, '**/api/me/estelecas?*');
    await page.reload();
    await expect(page.getByRole('status').filter({ hasText: 'Erro ao carregar histórico de Estelecas' })).toBeVisible({ timeout: 10_000 });
    await expect(page.getByRole('alert').filter({ hasText: 'Erro ao carregar histórico de Estelecas' })).toBeVisible();
  });
});

test.describe('ranking', () => {
  test('podium, full table with ties, the own row highlighted and a jump to it', async ({ page, context, school }) => {
    const me = await school.createStudent({ meritus: 7 });
    await loginViaApi(context, me);
    await navigate(page, '/student/ranking');
    const table = page.getByRole('table', { name: 'Ranking completo' });
    // Other tests change balances and add students meanwhile: the screen is compared with a fresh answer until they agree.
    let position = 0;
    await expect(async () => {
      const ranking = await getJson<RankingAnswer>(page, '/api/ranking?around=me');
      await expect(page.getByTestId('podium-place')).toHaveCount(Math.min(3, ranking.total), { timeout: 1_000 });
      await expect(page.getByTestId('podium-place').nth(1)).toContainText(ranking.podium[0]!.name, { timeout: 1_000 });
      await expect(table).toHaveAttribute('aria-rowcount', String(ranking.total + 1), { timeout: 1_000 });
      await expect(table.getByRole('row').nth(1)).toContainText(ranking.podium[0]!.name, { timeout: 1_000 });
      position = ranking.me!.position;
      await page.getByRole('button', { name: `Ir para minha posição (#${position})` }).click({ timeout: 1_000 });
    }).toPass({ timeout: 15_000 });
    const mine = page.getByTestId('my-ranking-row');
    await expect(mine).toBeFocused();
    await expect(mine).toBeInViewport();
    await expect(mine).toContainText(me.name);
    await expect(mine).toContainText('Você');
    await expect(mine).toContainText(meritus(me.meritus));

    // The web's client sends back the ETag it holds: the browser hands its 304 to the page (no cache of its own in between).
    const statuses = await page.evaluate(async () => {
      const address = '/api/ranking?page=0&size=50';
      const first = await fetch(address);
      const again = await fetch(address, { headers: { 'If-None-Match': first.headers.get('ETag') ?? '' } });
      return [first.status, first.headers.get('Cache-Control'), again.status];
    });
    expect(statuses).toEqual([200, 'private, no-cache', 304]);
  });

  test('errors and an empty school', async ({ page, context }) => {
    await loginViaApi(context, 'student');
    await withoutLiveEvents(page);
    await failWith500(page, '**/api/ranking?*');
    await navigate(page, '/student/ranking');
    await expect(page.getByText('Não foi possível carregar o ranking')).toBeVisible({ timeout: 10_000 });
    await page.unroute('**/api/ranking?*');
    const empty: RankingAnswer = { mode: 'full', total: 0, ranked: 0, podium: [], me: null, page: 0, size: 50, entries: [] };
    await page.route('**/api/ranking?*', (route) => route.fulfill({ json: empty }));
    await page.getByRole('button', { name: 'Tentar novamente' }).click();
    await expect(page.getByText('Nenhum estudante no ranking ainda')).toBeVisible();
  });

  /**
   * A school of 2,000 where the signed-in student is 1,501st, tied with the next (both #1501), answered page by page as
   * the server does; returns the pages asked for.
   */
  async function rankingOf2000(page: Page, context: BrowserContext): Promise<string[]> {
    await loginViaApi(context, 'student');
    const me = (await (await context.request.get('/api/auth/me')).json()) as Me;
    const myIndex = 1500;
    const students: RankingRow[] = Array.from({ length: 2000 }, (_, index) => ({
      id: index === myIndex ? me.student.id : `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`,
      studentId: String(3_000_000 + index),
      name: index === myIndex ? me.student.name : `Estudante ${String(index).padStart(4, '0')}`,
      grade: '2º EM - Turma B',
      photo: null,
      meritus: 5000 - Math.floor(index / 2),
      estelecas: 0,
      position: index - (index % 2) + 1,
    }));
    const asked: string[] = [];
    await page.route('**/api/ranking?*', (route) => {
      const query = new URL(route.request().url()).searchParams;
      asked.push(query.toString());
      const size = Number(query.get('size') ?? 50);
      const number = query.get('around') === 'me' ? Math.floor(myIndex / size) : Number(query.get('page') ?? 0);
      const json: RankingAnswer = {
        mode: 'full',
        total: students.length,
        ranked: students.length,
        podium: students.slice(0, 3),
        me: { ...students[myIndex]!, index: myIndex },
        page: number,
        size,
        entries: students.slice(number * size, number * size + size),
      };
      return route.fulfill({ json });
    });
    return asked;
  }

  /** Scrolls the page from the top to the bottom, 2,000 px a frame, as a flick through the list would; returns the time it took. */
  function scrollTopToBottom(page: Page): Promise<number> {
    return page.evaluate(async () => {
      const started = performance.now();
      for (let y = 0; y < document.body.scrollHeight; y += 2000) {
        window.scrollTo(0, y);
        await new Promise((resolve) => requestAnimationFrame(resolve));
      }
      return performance.now() - started;
    });
  }

  test('stays smooth with 2,000 students: few rows in the page, quick to show, jump works', async ({ page, context }) => {
    await page.emulateMedia({ reducedMotion: 'no-preference' }); // the jump scrolls smoothly
    const asked = await rankingOf2000(page, context);
    await navigate(page, '/student');
    await page.evaluate(() => performance.mark('ranking-start'));
    await page.getByRole('link', { name: 'Top Ranking' }).first().click();
    await expect(page.getByRole('table', { name: 'Ranking completo' }).getByRole('row').nth(1)).toContainText('Estudante 0000');
    // Two pages, never the whole school: the one around the student's row (with the podium) and the top of the table.
    expect(new Set(asked)).toEqual(new Set(['around=me&size=50', 'page=0&size=50']));
    const renderMs = await page.evaluate(() => performance.now() - performance.getEntriesByName('ranking-start')[0]!.startTime);
    const rowsInDom = await page.locator('tbody tr[aria-rowindex]').count();
    test
      .info()
      .annotations.push({ type: 'ranking-2000', description: `shown in ${Math.round(renderMs)} ms with ${rowsInDom} rows in the page` });
    console.log(`ranking with 2,000 students: shown in ${Math.round(renderMs)} ms, ${rowsInDom} rows in the page`);
    // Only the rows in view are in the page; the time is reported, not asserted: it follows the machine's load.
    expect(rowsInDom).toBeLessThan(80);

    // Ties: index 1500 and 1501 share the Méritus, so both are #1501.
    await page.getByRole('button', { name: 'Ir para minha posição (#1501)' }).click();
    await expect(page.getByTestId('my-ranking-row')).toBeFocused();
    await expect(page.getByTestId('my-ranking-row')).toContainText('#1501');
    await expect(page.getByTestId('my-ranking-row')).toBeInViewport();

    const scrollMs = await scrollTopToBottom(page);
    test.info().annotations.push({ type: 'ranking-2000-scroll', description: `scrolled the whole list in ${Math.round(scrollMs)} ms` });
    console.log(`ranking with 2,000 students: scrolled top to bottom in ${Math.round(scrollMs)} ms`);
    await expect(page.getByRole('table', { name: 'Ranking completo' })).toContainText('Estudante 1999');
  });

  test('with reduced motion (an instant scroll) the jump lands on the own row and the list still reaches its last student', async ({
    page,
    context,
  }) => {
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await rankingOf2000(page, context);
    await navigate(page, '/student/ranking');
    await page.getByRole('button', { name: 'Ir para minha posição (#1501)' }).click();
    const mine = page.getByTestId('my-ranking-row');
    await expect(mine).toBeFocused();
    await expect(mine).toBeInViewport();
    await scrollTopToBottom(page);
    await expect(page.getByRole('table', { name: 'Ranking completo' })).toContainText('Estudante 1999');
  });
});

test.describe('recent operations', () => {
  test('both currencies newest first, filters, search and pages', async ({ page, context, school }) => {
    const me = await school.createStudent();
    await loginViaApi(context, me);
    for (let i = 0; i < 22; i++) await school.award(me, i % 2 ? 'estelecas' : 'meritus', 1, `Tarefa extra ${i + 1}`);

    await navigate(page, '/student/recent-operations');
    const rows = page.locator('main li').filter({ has: page.locator('time') });
    await expect(rows).toHaveCount(20);
    await expect(rows.first()).toContainText('Tarefa extra 22');
    await expect(rows.first()).toContainText('+1 Esteleca');
    await expect(rows.nth(1)).toContainText('+1 M$');
    await expect(rows.first().locator('time').first()).toHaveText(/^\d{2}\/\d{2}\/\d{4}, \d{2}:\d{2}$/);
    await page.getByRole('button', { name: 'Carregar mais' }).click();
    // 22 operations and the initial balance
    const total = 23;
    await expect(rows).toHaveCount(total);

    await page.getByRole('radio', { name: 'Estelecas' }).check();
    await expect(rows.first()).toContainText('Esteleca');
    for (const row of (await rows.all()).slice(0, 10)) await expect(row).toContainText('Esteleca');

    await page.getByLabel('Tipo').selectOption('credit');
    await page.getByRole('searchbox', { name: 'Buscar por descrição, colega ou matrícula' }).fill('Tarefa extra 22');
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toContainText('Tarefa extra 22');

    await page.getByRole('searchbox', { name: 'Buscar por descrição, colega ou matrícula' }).fill('nada-assim');
    await expect(page.getByText('Nenhuma operação encontrada')).toBeVisible();
    await page.getByRole('button', { name: 'Limpar filtros' }).first().click();
    // Back to the whole history, with the pages already loaded.
    await expect(rows).toHaveCount(total);
    await expect(rows.first()).toContainText('Tarefa extra 22');
  });

  test('empty history and a failed load', async ({ page, context }) => {
    await loginViaApi(context, 'student');
    await page.route('**/api/me/operations?*', (route) => route.fulfill({ json: { items: [], nextCursor: null } }));
    await navigate(page, '/student/recent-operations');
    await expect(page.getByText('Nenhuma transação recente')).toBeVisible();
    await page.unroute('**/api/me/operations?*');
    await failWith500(page, '**/api/me/operations?*');
    await page.reload();
    await expect(page.getByText('Não foi possível carregar suas operações')).toBeVisible({ timeout: 10_000 });
  });
});

test.describe('accessibility and layout', () => {
  for (const viewport of [
    { width: 1440, height: 900 },
    { width: 390, height: 844 },
  ]) {
    test(`axe finds no serious or critical violation on any student screen at ${viewport.width}×${viewport.height}`, async ({
      page,
      context,
    }) => {
      test.slow();
      await page.setViewportSize(viewport);
      await loginViaApi(context, 'student');
      for (const path of STUDENT_SCREENS) {
        await navigate(page, path);
        await expect(page.locator('main h1')).toBeVisible();
        await expect(page.locator('[aria-hidden="true"].animate-pulse')).toHaveCount(0, { timeout: 10_000 });
        await expectNoSeriousA11yViolations(page);
        // Nothing runs off the side of the screen.
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect(overflow, `${path} scrolls sideways`).toBeLessThanOrEqual(0);
      }
      await navigate(page, '/student/estelecas');
      await page.getByRole('button', { name: 'Transferir Estelecas' }).click();
      await expect(page.getByRole('dialog', { name: 'Transferir Estelecas' })).toBeVisible();
      await expectNoSeriousA11yViolations(page);
    });
  }
});
