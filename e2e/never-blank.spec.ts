import type { Page } from '@playwright/test';
import { BUILD_HEADER } from '../src/shared/constants.ts';
import { DEMO, expect, loginViaApi, navigate, test } from './fixtures.ts';

const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };

/** Opens a screen from the menu (the drawer on a phone). */
async function openFromMenu(page: Page, name: string): Promise<void> {
  const menuButton = page.getByRole('button', { name: 'Abrir menu' });
  if (await menuButton.isVisible()) await menuButton.click();
  await page.getByRole('navigation', { name: 'Menu principal' }).getByRole('link', { name }).click();
}

for (const [device, use] of [
  ['1440×900', {}],
  ['390×844', PHONE],
] as const) {
  test.describe(`never a blank page (${device})`, () => {
    test.use(use);

    test("a screen opened while the network is down says so inside the menu's frame, and opens once it is back", async ({
      page,
      context,
      school,
    }) => {
      await loginViaApi(context, await school.createStudent());
      await navigate(page, '/student');
      await context.setOffline(true);
      await openFromMenu(page, 'Top Ranking');
      const failure = page.getByRole('alert').filter({ hasText: 'Não foi possível abrir esta tela.' });
      await expect(failure).toBeVisible();
      await expect(failure.getByRole('button', { name: 'Tentar de novo' })).toBeVisible();
      await page.screenshot({ path: test.info().outputPath(`offline-${device}.png`) });
      // Still offline, the button tries again and says so again; the menu still leads elsewhere.
      await failure.getByRole('button', { name: 'Tentar de novo' }).focus();
      await page.keyboard.press('Enter');
      await expect(failure).toBeVisible();
      await context.setOffline(false);
      // Back online the screen opens by itself (or with the button, where the browser does not say it is online).
      await expect(page.getByRole('heading', { name: 'Top Ranking' })).toBeVisible();
      await expect(failure).toHaveCount(0);
    });

    test('after a deploy, a screen whose chunk is gone reloads the page to the new build, once', async ({ page, context, school }) => {
      await loginViaApi(context, await school.createStudent());
      await navigate(page, '/student');
      // The upgrade: the server now names another build, and the old build's ranking chunk is no longer there.
      // Not the live stream, which never ends: its answer could not be fetched whole to rewrite it.
      await page.route(
        (url) => url.pathname.startsWith('/api/') && url.pathname !== '/api/events',
        async (route) => {
          const response = await route.fetch();
          await route.fulfill({ response, headers: { ...response.headers(), [BUILD_HEADER.toLowerCase()]: 'nova-versao' } });
        },
      );
      // The new build's page finds its files (here the same ones, served again).
      let gone = true;
      let backOnReload = true;
      page.on('request', (request) => {
        if (request.isNavigationRequest() && backOnReload) gone = false;
      });
      await page.route(/\/assets\/student-ranking-page-.+\.js$/, (route) =>
        gone ? route.fulfill({ status: 404, body: 'Not Found' }) : route.fallback(),
      );
      const loads: string[] = [];
      page.on('load', () => loads.push(new URL(page.url()).pathname));
      await openFromMenu(page, 'Top Ranking');
      await expect(page.getByRole('heading', { name: 'Top Ranking' })).toBeVisible();
      expect(loads).toEqual(['/student/ranking']);

      // A page still of another build than the server names after its reload (a cached page) does not reload again:
      // the screen says it could not open.
      backOnReload = false;
      gone = true;
      let sessionChecks = 0;
      page.on('response', (response) => {
        if (new URL(response.url()).pathname === '/api/auth/me') sessionChecks += 1;
      });
      await page.reload();
      const failure = page.getByText('Não foi possível abrir esta tela.');
      await expect(failure).toBeVisible();
      // The boundary asked the server which build it serves (the page's own first reads came in the page).
      await expect.poll(() => sessionChecks).toBeGreaterThan(0);
      expect(await page.evaluate(() => sessionStorage.getItem('meritus-reloaded-to-build'))).toBe('nova-versao');
      await expect(failure).toBeVisible();
      expect(loads).toEqual(['/student/ranking', '/student/ranking']);
      await page.unrouteAll({ behavior: 'ignoreErrors' });
    });

    test('the login says when the server is out of reach, where a wrong password is wrong, and where to go without one', async ({
      page,
      context,
    }) => {
      await page.goto('/login');
      await expect(page.getByText('Esqueceu a senha? Peça ao seu professor ou à coordenação.')).toBeVisible();
      await page.getByLabel('Matrícula').fill(DEMO.student.studentId);
      const password = page.getByLabel('Senha', { exact: true });
      await password.fill('senha-errada');
      await page.getByRole('button', { name: 'Entrar' }).click();
      await expect(password).toHaveAttribute('aria-invalid', 'true');
      await expect(password).toHaveAccessibleDescription('Matrícula ou senha incorretos');
      await page.screenshot({ path: test.info().outputPath(`wrong-password-${device}.png`) });
      await password.fill(DEMO.student.password);
      await expect(password).not.toHaveAttribute('aria-invalid');

      await context.setOffline(true);
      await page.getByRole('button', { name: 'Entrar' }).click();
      await expect(page.getByText('Sem conexão com o servidor. Verifique sua internet e tente de novo em alguns segundos.')).toBeVisible();
      await expect(page.getByText('Erro ao fazer login. Tente novamente.')).toHaveCount(0);
      await page.screenshot({ path: test.info().outputPath(`login-offline-${device}.png`) });
      await context.setOffline(false);
    });

    test('a student whose password the teacher reset lands on the login saying so', async ({ page, context, school }) => {
      const student = await school.createStudent();
      await loginViaApi(context, student);
      await navigate(page, '/student');
      const reset = await school.admin.post(`/api/admin/students/${student.id}/password`);
      expect(reset.status(), await reset.text()).toBe(200);
      // The open page is told at once when its live stream hears the session end; else the next screen it opens finds out.
      const toldAtOnce = await page.waitForURL('/login', { timeout: 10_000 }).then(
        () => true,
        () => false,
      );
      if (!toldAtOnce) await openFromMenu(page, 'Operações Recentes');
      await expect(page).toHaveURL('/login');
      await expect(page.getByRole('alert').filter({ hasText: 'Sua senha foi redefinida. Peça a nova ao professor.' })).toBeVisible();
      await page.screenshot({ path: test.info().outputPath(`password-reset-${device}.png`) });
      // The same on the next visit, with the page opened anew.
      await page.goto('/student');
      await expect(page).toHaveURL('/login');
      await expect(page.getByText('Sua senha foi redefinida. Peça a nova ao professor.')).toBeVisible();
    });
  });
}
