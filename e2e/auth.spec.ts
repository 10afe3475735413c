import type { Page } from '@playwright/test';
import { expectNoSeriousA11yViolations } from './axe.ts';
import { DEMO, expect, HOME, login, loginViaApi, navigate, test, type Role } from './fixtures.ts';

/**
 * The sidebar entries, in order, per role: the spec's, with the Loja (issue 35: after Estelecas), and Relatórios and
 * Configurações before the technical screens, which the staff's sidebar lists under 'Sistema' (issue 36), and the Hall
 * da Fama after the ranking (issue 38).
 */
const SPEC_NAV: Record<Role, string[]> = {
  student: [
    '/student',
    '/student/profile',
    '/student/transfer',
    '/student/estelecas',
    '/student/loja',
    '/student/ranking',
    // Issue 38: a closed year's honours, after the ranking.
    '/student/hall-da-fama',
    '/student/recent-operations',
    // Issue 36: the school's rules for students.
    '/student/como-ganhar',
  ],
  admin: [
    '/admin',
    '/admin/students',
    '/admin/meritus',
    '/admin/estelecas',
    '/admin/loja',
    '/admin/ranking',
    '/admin/hall-da-fama',
    '/admin/recent-operations',
    '/admin/reports',
    '/admin/settings',
    '/admin/backend',
    '/admin/database',
    '/admin/debug',
  ],
};

async function userName(page: Page, role: Role): Promise<string> {
  const response = await page.request.get('/api/auth/me');
  expect(response.status()).toBe(200);
  const me = (await response.json()) as { student?: { name: string }; admin?: { name: string } };
  const name = role === 'student' ? me.student?.name : me.admin?.name;
  expect(name).toBeTruthy();
  return name!;
}

/** Every sidebar link is a spec entry of the role, in the spec's order, and opens its own screen. */
async function expectNavFollowsSpec(page: Page, role: Role): Promise<void> {
  const nav = page.getByRole('navigation', { name: 'Menu principal' });
  await expect(nav).toBeVisible();
  const hrefs = await nav.getByRole('link').evaluateAll((links) => links.map((link) => link.getAttribute('href') ?? ''));
  const positions = hrefs.map((href) => SPEC_NAV[role].indexOf(href));
  expect(
    positions.every((position) => position >= 0),
    `links outside the spec: ${hrefs.join(', ')}`,
  ).toBe(true);
  expect(positions).toEqual([...positions].sort((a, b) => a - b));
  for (const href of hrefs) {
    await nav.locator(`a[href="${href}"]`).click();
    await expect(page).toHaveURL(href);
    await expect(nav.locator(`a[href="${href}"]`)).toHaveAttribute('aria-current', 'page');
  }
}

test.describe('sign in and out', () => {
  test('the demo student signs in, stays signed in after a reload and signs out', async ({ page }) => {
    test.slow(); // opens every registered screen of the area
    await login(page, 'student');
    const name = await userName(page, 'student');
    await expect(page.getByText(`Bem-vindo, ${name}!`)).toBeVisible();
    await expect(page.getByTestId('user-name')).toHaveText(name);
    await expect(page.getByText('Meta: 2.000 M$')).toBeVisible();
    await expect(page.getByRole('progressbar', { name: 'Progresso da meta de Méritus' })).toBeVisible();
    await expect(page.getByRole('progressbar', { name: 'Estelecas (escala de 100)' })).toBeVisible();
    await expect(page.getByText('1 Méritus = R$ 1,00')).toBeVisible();
    await expectNavFollowsSpec(page, 'student');

    await page.goto(HOME.student);
    await page.reload();
    await expect(page).toHaveURL(HOME.student);
    await expect(page.getByTestId('user-name')).toHaveText(name);

    await page.getByRole('button', { name: 'Sair' }).click();
    await expect(page.getByText('Logout realizado com sucesso')).toBeVisible();
    await expect(page).toHaveURL('/login');
    await page.goto(HOME.student);
    await expect(page).toHaveURL('/login');
    await expect(page.getByRole('button', { name: 'Entrar' })).toBeVisible();
  });

  test('the demo administrator signs in, stays signed in after a reload and signs out', async ({ page }) => {
    test.slow(); // opens every registered screen of the area
    await login(page, 'admin');
    await expect(page.getByText('Bem-vindo, Administrador Principal!')).toBeVisible();
    await expect(page.getByTestId('user-name')).toHaveText('Administrador Principal');
    await expect(page.getByText('Meta: 2.000 M$')).toHaveCount(0);
    await expectNavFollowsSpec(page, 'admin');

    await page.goto(HOME.admin);
    await page.reload();
    await expect(page).toHaveURL(HOME.admin);
    await expect(page.getByTestId('user-name')).toHaveText('Administrador Principal');

    await page.getByRole('button', { name: 'Sair' }).click();
    await expect(page.getByText('Logout realizado com sucesso')).toBeVisible();
    await expect(page).toHaveURL('/login');
    await page.goto(HOME.admin);
    await expect(page).toHaveURL('/login');
  });

  test('a signed-in user opening /login or / lands on their home', async ({ page, context }) => {
    await loginViaApi(context, 'admin');
    await navigate(page, '/login');
    await expect(page).toHaveURL(HOME.admin);
    await navigate(page, '/');
    await expect(page).toHaveURL(HOME.admin);
  });
});

test.describe('signed-in shell', () => {
  test("the sidebar balances follow a teacher's award at once, without a reload", async ({ page, school }) => {
    const student = await school.createStudent({ meritus: 1_200 });
    await loginViaApi(page, student);
    await navigate(page, HOME.student);
    const meritusCard = page.getByRole('region', { name: 'Seus Méritus' });
    await expect(meritusCard).toContainText('1.200 M$');
    await page.evaluate(() => Object.assign(window, { __sameDocument: true }));

    await school.award(student, 'meritus', 7, 'Teste de atualização ao vivo');
    await expect(meritusCard).toContainText('1.207 M$', { timeout: 5_000 });
    expect(await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
  });
});

test.describe('route guard', () => {
  test('anonymous visitors are sent to /login from every area', async ({ page }) => {
    for (const path of ['/', '/student', '/student/ranking', '/admin', '/admin/students', '/qualquer-coisa']) {
      await page.goto(path);
      await expect(page).toHaveURL('/login');
    }
    await expect(page.getByRole('tab', { name: 'Estudante' })).toHaveAttribute('aria-selected', 'true');
  });

  // The page opened signed out preloaded its first reads (401): signing in on it, without a reload, must read again.
  for (const [opened, role] of [
    ['/student', 'student'],
    ['/admin', 'admin'],
  ] as const) {
    test(`a visitor who opened ${opened} signs in on the page it sent them to and stays on their home with its figures`, async ({
      page,
    }) => {
      await page.goto(opened);
      await expect(page).toHaveURL('/login');
      await page.getByRole('tab', { name: role === 'student' ? 'Estudante' : 'Administrador' }).click();
      if (role === 'student') await page.getByLabel('Matrícula').fill(DEMO.student.studentId);
      else await page.getByLabel('Email').fill(DEMO.admin.email);
      await page.getByLabel('Senha', { exact: true }).fill(DEMO[role].password);
      await page.getByRole('button', { name: 'Entrar' }).click();
      await expect(page).toHaveURL(HOME[role]);
      // Figures only the home screen's reads bring: with a stale 401 the page would be signed out again instead.
      if (role === 'student') await expect(page.getByRole('progressbar', { name: 'Progresso da meta de Méritus' })).toBeVisible();
      else await expect(page.getByRole('region', { name: 'Indicadores' })).toContainText(/\d/);
      await expect(page).toHaveURL(HOME[role]);
      await expect(page.getByRole('button', { name: 'Sair' })).toBeVisible();
    });
  }

  test('a student opening an admin screen is sent away, and an admin opening a student screen too', async ({ browser }) => {
    const studentContext = await browser.newContext();
    await loginViaApi(studentContext, 'student');
    const studentPage = await studentContext.newPage();
    for (const path of ['/admin', '/admin/students', '/admin/debug']) {
      await studentPage.goto(path);
      await expect(studentPage).toHaveURL(HOME.student);
    }
    await studentContext.close();

    const adminContext = await browser.newContext();
    await loginViaApi(adminContext, 'admin');
    const adminPage = await adminContext.newPage();
    await adminPage.goto('/student/transfer');
    await expect(adminPage).toHaveURL(HOME.admin);
    await adminContext.close();
  });
});

test.describe('login form', () => {
  test('the password can be shown and hidden', async ({ page }) => {
    await page.goto('/login');
    const password = page.getByLabel('Senha', { exact: true });
    await password.fill('segredo');
    await expect(password).toHaveAttribute('type', 'password');
    await page.getByRole('button', { name: 'Mostrar senha' }).click();
    await expect(password).toHaveAttribute('type', 'text');
    await page.getByRole('button', { name: 'Ocultar senha' }).click();
    await expect(password).toHaveAttribute('type', 'password');
  });

  test('wrong credentials show the message of each role', async ({ page }) => {
    await page.goto('/login');
    await page.getByLabel('Matrícula').fill(DEMO.student.studentId);
    await page.getByLabel('Senha', { exact: true }).fill('senha-errada');
    await page.getByRole('button', { name: 'Entrar' }).click();
    await expect(page.getByRole('tabpanel', { name: 'Estudante' }).getByText('Matrícula ou senha incorretos')).toBeVisible();
    await expect(page).toHaveURL('/login');

    await page.getByRole('tab', { name: 'Administrador' }).click();
    await expect(page.getByLabel('Email')).toHaveAttribute('type', 'email');
    await page.getByLabel('Email').fill(DEMO.admin.email);
    await page.getByLabel('Senha', { exact: true }).fill('senha-errada');
    await page.getByRole('button', { name: 'Entrar' }).click();
    await expect(page.getByRole('tabpanel', { name: 'Administrador' }).getByText('Email ou senha incorretos')).toBeVisible();
    await expect(page).toHaveURL('/login');
  });

  test('an empty submit sends nothing and shows nothing', async ({ page }) => {
    await page.goto('/login');
    const loginCalls: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/api/auth/') && request.method() === 'POST') loginCalls.push(request.url());
    });
    await page.getByRole('button', { name: 'Entrar' }).click();
    await page.getByLabel('Matrícula').fill('2024001');
    await page.getByRole('button', { name: 'Entrar' }).click();
    await expect(page.getByRole('status').filter({ hasText: /\S/ })).toHaveCount(0);
    await expect(page).toHaveURL('/login');
    // A complete form is then sent: had the incomplete ones been sent, their calls would stand before it.
    await page.getByLabel('Senha', { exact: true }).fill(DEMO.student.password);
    await page.getByRole('button', { name: 'Entrar' }).click();
    await expect(page).toHaveURL(HOME.student);
    expect(loginCalls.map((url) => new URL(url).pathname)).toEqual(['/api/auth/student/login']);
  });

  test('the button reads "Entrando..." while signing in', async ({ page }) => {
    await page.route('**/api/auth/student/login', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 600));
      await route.continue();
    });
    await page.goto('/login');
    await page.getByLabel('Matrícula').fill(DEMO.student.studentId);
    await page.getByLabel('Senha', { exact: true }).fill(DEMO.student.password);
    await page.getByRole('button', { name: 'Entrar' }).click();
    await expect(page.getByRole('button', { name: 'Entrando...' })).toBeDisabled();
    await expect(page).toHaveURL(HOME.student);
  });

  test('a server failure shows the generic login error', async ({ page }) => {
    await page.route('**/api/auth/admin/login', (route) =>
      route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ error: { code: 'internal', message: 'x' } }) }),
    );
    await page.goto('/login');
    await page.getByRole('tab', { name: 'Administrador' }).click();
    await page.getByLabel('Email').fill(DEMO.admin.email);
    await page.getByLabel('Senha', { exact: true }).fill(DEMO.admin.password);
    await page.getByRole('button', { name: 'Entrar' }).click();
    await expect(page.getByText('Erro ao fazer login. Tente novamente.')).toBeVisible();
  });

  test('the demonstration credentials are shown in demo mode and fill the form', async ({ page }) => {
    await page.goto('/login');
    const box = page.getByRole('complementary', { name: 'Credenciais de demonstração' });
    await expect(box).toContainText('2024001');
    await expect(box).toContainText('aluno123');
    await box.getByRole('button', { name: 'Preencher' }).click();
    await expect(page.getByLabel('Matrícula')).toHaveValue('2024001');
    await page.getByRole('tab', { name: 'Administrador' }).click();
    await expect(box).toContainText('admin@escola.com');
    // The demo's teachers beside the coordination, each filling the form with their own account.
    for (const teacher of DEMO.teachers) {
      await expect(box).toContainText(teacher.email);
      await box.getByRole('button', { name: `Preencher: Professor(a) ${teacher.name}` }).click();
      await expect(page.getByLabel('Email')).toHaveValue(teacher.email);
    }
    await box.getByRole('button', { name: 'Preencher: Coordenação' }).click();
    await expect(page.getByLabel('Email')).toHaveValue('admin@escola.com');
    await page.getByRole('button', { name: 'Entrar' }).click();
    await expect(page).toHaveURL(HOME.admin);
  });

  test('outside demo mode the page shows no demonstration credentials', async ({ page }) => {
    await page.route(
      (url) => url.pathname === '/login',
      async (route) => {
        const response = await route.fetch();
        const body = (await response.text()).replace('<meta name="meritus-demo" content="on"', '<meta name="meritus-demo" content="off"');
        await route.fulfill({ response, body });
      },
    );
    await page.goto('/login');
    await expect(page.getByRole('button', { name: 'Entrar' })).toBeVisible();
    await expect(page.getByText('Credenciais de demonstração')).toHaveCount(0);
    await page.getByRole('tab', { name: 'Administrador' }).click();
    await expect(page.getByText('admin123')).toHaveCount(0);
  });

  test('the login page has no serious accessibility violations on either tab', async ({ page }) => {
    await page.goto('/login');
    await expect(page.getByRole('button', { name: 'Entrar' })).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    await page.getByRole('tab', { name: 'Administrador' }).click();
    await expectNoSeriousA11yViolations(page);
  });
});

test.describe('on a phone (390×844)', () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test('the drawer opens with the entries, and closes with its button, Escape, the overlay and navigation', async ({ page }) => {
    await loginViaApi(page, 'student');
    await navigate(page, HOME.student);
    const name = await userName(page, 'student');
    const openMenu = page.getByRole('button', { name: 'Abrir menu' });
    const drawer = page.getByRole('dialog', { name: 'Menu de navegação' });
    await expect(page.getByRole('navigation', { name: 'Menu principal' })).toBeHidden();

    await openMenu.click();
    await expect(drawer).toBeVisible();
    await expect(drawer.getByTestId('user-name')).toHaveText(name);
    await expect(drawer.getByText('Meta: 2.000 M$')).toBeVisible();
    await expect(drawer.getByRole('button', { name: 'Sair' })).toBeVisible();
    // On a phone a drawer opens focused as a whole (issue 36: no control or field takes the focus as it opens).
    await expect(drawer).toBeFocused();
    await drawer.getByRole('button', { name: 'Fechar menu' }).click();
    await expect(drawer).toBeHidden();
    await expect(openMenu).toBeFocused();

    await openMenu.click();
    await page.keyboard.press('Escape');
    await expect(drawer).toBeHidden();

    await openMenu.click();
    await page.getByTestId('drawer-overlay').click({ position: { x: 370, y: 400 } });
    await expect(drawer).toBeHidden();

    const links = drawer.getByRole('navigation', { name: 'Menu principal' }).getByRole('link');
    await openMenu.click();
    const count = await links.count();
    if (count > 1) {
      const target = (await links.nth(1).getAttribute('href'))!;
      await links.nth(1).click();
      await expect(page).toHaveURL(target);
      await expect(drawer).toBeHidden();
    } else {
      await page.keyboard.press('Escape');
    }

    await openMenu.click();
    await drawer.getByRole('button', { name: 'Sair' }).click();
    await expect(page).toHaveURL('/login');
  });

  test('the signed-in shell has no serious accessibility violations', async ({ page }) => {
    await loginViaApi(page, 'student');
    await navigate(page, HOME.student);
    await expectNoSeriousA11yViolations(page);
    await page.getByRole('button', { name: 'Abrir menu' }).click();
    await expectNoSeriousA11yViolations(page);
  });
});
