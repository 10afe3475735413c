import { randomUUID } from 'node:crypto';
import type { Locator, Page } from '@playwright/test';
import { DEMO, test, expect, loginViaApi, navigate, getJson } from './fixtures.ts';
import { expectNoSeriousA11yViolations } from './axe.ts';
import type { SchoolSettings } from '../src/shared/settings.ts';

/** Settings are the school's, shared by every test of the run: each test puts back what it changed. */
async function withSettings(
  school: { admin: import('@playwright/test').APIRequestContext },
  change: (current: SchoolSettings) => Promise<void>,
  body: () => Promise<void>,
) {
  const current = await getJson<SchoolSettings>(school.admin, '/api/settings');
  await change(current);
  try {
    await body();
  } finally {
    await school.admin.put('/api/admin/settings/rules', { data: current.rules });
    await school.admin.put('/api/admin/settings/school', { data: { name: current.school.name, timeZone: current.school.timeZone } });
  }
}

for (const size of [
  { name: 'desktop', viewport: { width: 1440, height: 900 } },
  { name: 'phone', viewport: { width: 390, height: 844 } },
]) {
  test(`the settings screen (${size.name}): every section, axe clean`, async ({ page }) => {
    await page.setViewportSize(size.viewport);
    await loginViaApi(page, 'admin');
    await navigate(page, '/admin/settings');
    await expect(page.getByRole('heading', { name: 'Configurações' })).toBeVisible();
    for (const section of ['Escola', 'Regras', 'Turmas', 'Equipe'])
      await expect(page.getByRole('heading', { name: section })).toBeVisible();
    await expect(page.getByLabel('Meta de Méritus (M$)')).toHaveValue(/^\d+$/);
    await expect(page.getByRole('list', { name: 'Turmas da escola' }).getByRole('listitem')).not.toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Salvar regras' })).toBeVisible();
    await expect(page.getByRole('checkbox', { name: 'Professores podem cadastrar alunos' })).not.toBeChecked();
    await expect(page.getByLabel('Limite semanal padrão dos professores de M$')).toHaveValue('');
    await expect(page.getByRole('list', { name: 'Equipe' }).getByText('admin@escola.com')).toBeVisible();
    await expectNoSeriousA11yViolations(page);

    // A rename takes the keyboard into its field; Escape leaves it unchanged, back on its 'Renomear'.
    await page.getByRole('button', { name: 'Renomear 1º EM - Turma A' }).click();
    await expect(page.getByLabel('Novo nome de 1º EM - Turma A')).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(page.getByRole('button', { name: 'Renomear 1º EM - Turma A' })).toBeFocused();

    // A refused turma says why beside its field, not only in a toast that leaves after 3 s.
    await page.getByLabel('Nova turma').fill('1º em - turma a');
    await page.getByRole('button', { name: 'Adicionar turma' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'Já existe uma turma com este nome' })).toBeVisible();
    await expect(page.getByLabel('Nova turma')).toHaveAttribute('aria-invalid', 'true');
  });
}

test("a new goal saved on the settings screen shows in a student's sidebar", async ({ page, browser, school }) => {
  const student = await school.createStudent({ meritus: 300 });
  await withSettings(
    school,
    async () => {},
    async () => {
      await loginViaApi(page, 'admin');
      await navigate(page, '/admin/settings');
      await page.getByLabel('Meta de Méritus (M$)').fill('600');
      await page.getByRole('button', { name: 'Salvar regras' }).click();
      await expect(page.getByText('Regras salvas')).toBeVisible();

      const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
      const studentPage = await context.newPage();
      await loginViaApi(studentPage, student);
      await navigate(studentPage, '/student');
      const sidebar = studentPage.getByRole('region', { name: 'Seus Méritus' });
      await expect(sidebar.getByText('Meta: 600 M$')).toBeVisible();
      await expect(sidebar.getByText('50%')).toBeVisible();
      await context.close();
    },
  );
});

test('the two Responsáveis settings take the penalties and the ranking position off an open family screen', async ({
  page,
  browser,
  school,
}) => {
  const child = await school.createStudent({ meritus: 50 });
  const penalty = await school.admin.post(`/api/admin/students/${child.id}/meritus`, {
    data: { type: 'penalty', amount: 4, description: 'Celular na prova' },
    headers: { 'idempotency-key': randomUUID() },
  });
  expect(penalty.status(), await penalty.text()).toBe(201);
  const code = (await (await school.admin.post(`/api/admin/students/${child.id}/guardian-codes`)).json()) as { code: string };
  const family = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const signup = await family.request.post('/api/auth/guardian/signup', {
    data: {
      code: code.code,
      email: `familia.${randomUUID().slice(0, 8)}@exemplo.test`,
      name: 'Lia Responsável',
      password: 'senha-da-familia-1',
    },
  });
  expect(signup.status(), await signup.text()).toBe(201);
  await withSettings(
    school,
    async () => {},
    async () => {
      const phone = await family.newPage();
      await navigate(phone, '/familia');
      const card = phone.getByTestId('family-child');
      await expect(card.getByText('Celular na prova')).toBeVisible();
      await expect(card.getByText('Posição no ranking')).toBeVisible();

      await loginViaApi(page, 'admin');
      await navigate(page, '/admin/settings');
      await page.getByLabel('Responsáveis veem remoções e penalidades').uncheck();
      await page.getByLabel('Responsáveis veem a posição do filho no ranking').uncheck();
      await page.getByRole('button', { name: 'Salvar regras' }).click();
      await expect(page.getByText('Regras salvas')).toBeVisible();

      // The open family screen hears the settings change and reads the child again.
      await expect(card.getByText('Celular na prova')).toBeHidden();
      await expect(card.getByText('Posição no ranking')).toBeHidden();
      await expect(card.getByText('Saldo inicial', { exact: false }).first()).toBeVisible();
    },
  );
  await family.close();
});

test("the login page shows the school's name and its logo mark", async ({ page, school }) => {
  await withSettings(
    school,
    async (current) => {
      const saved = await school.admin.put('/api/admin/settings/school', {
        data: { name: 'Colégio Horizonte Azul', timeZone: current.school.timeZone },
      });
      expect(saved.status()).toBe(200);
    },
    async () => {
      await page.setViewportSize({ width: 390, height: 844 });
      await page.goto('/login');
      await expect(page.getByText('Colégio Horizonte Azul')).toBeVisible();
    },
  );
});

/** Nothing in the locator is cut: no box wider than the space it has, and the page does not scroll sideways. */
async function expectNothingCut(page: Page, within: Locator) {
  const cut = await within.evaluate((root) =>
    [root, ...root.querySelectorAll<HTMLElement>('*')]
      .filter((element) => element.scrollWidth > element.clientWidth + 1 && getComputedStyle(element).overflowX !== 'auto')
      .map((element) => element.textContent?.slice(0, 60)),
  );
  expect(cut).toEqual([]);
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
}

// The staff count on the system screen holds still while the other tests run (system.spec.ts): adding a member waits for them here.
for (const size of [
  { name: 'desktop', viewport: { width: 1440, height: 900 } },
  { name: 'phone', viewport: { width: 390, height: 844 } },
]) {
  test(`Equipe (${size.name}): a new teacher signs in with the password shown once; deactivated, their session ends at once`, async ({
    page,
    browser,
  }) => {
    await page.setViewportSize(size.viewport);
    const name = `Profª Conceição ${size.name === 'phone' ? 'Móvel' : 'Araújo'} ${Date.now().toString(36)}`;
    const email = `prof.${size.name}.${Date.now()}@escola.test`;
    await loginViaApi(page, 'admin');
    await navigate(page, '/admin/settings');
    const team = page.getByRole('list', { name: 'Equipe' });
    await expect(team.getByText('admin@escola.com')).toBeVisible();

    await page.getByRole('button', { name: 'Adicionar membro' }).click();
    const dialog = page.getByRole('dialog', { name: 'Adicionar membro da equipe' });
    await dialog.getByLabel('Nome').fill(name);
    await dialog.getByLabel('Email').fill(email);
    await expect(dialog.getByLabel('Papel')).toHaveValue('teacher');
    await dialog.getByRole('checkbox', { name: '1º EM - Turma A' }).check();
    await expectNoSeriousA11yViolations(page, { within: '[role="dialog"]' });
    await dialog.getByRole('button', { name: 'Adicionar' }).click();
    await expect(dialog).toHaveCount(0);
    await expect(page.getByText(`Senha de ${name}: entregue-a à pessoa; ela não será mostrada novamente.`)).toBeVisible();
    const password = (await page.getByTestId('staff-password').textContent())!;

    const row = team.getByRole('listitem').filter({ hasText: email });
    await expect(row).toContainText('Professor');
    await expect(row).toContainText('Turmas: 1º EM - Turma A');
    await expect(row).toContainText('Último acesso: nunca');
    await expectNothingCut(page, team);
    await expectNoSeriousA11yViolations(page);

    // The teacher signs in elsewhere with the password shown.
    const elsewhere = await browser.newContext();
    try {
      const signIn = await elsewhere.request.post('/api/auth/admin/login', { data: { email, password } });
      expect(signIn.status()).toBe(200);
      expect((await signIn.json()).role).toBe('teacher');
      expect((await elsewhere.request.get('/api/auth/me')).status()).toBe(200);

      await page.getByRole('button', { name: `Desativar ${name}` }).click();
      const confirm = page.getByRole('dialog', { name: 'Desativar membro da equipe' });
      await expect(confirm).toContainText('As sessões abertas são encerradas na hora');
      await confirm.getByRole('button', { name: 'Desativar' }).click();
      await expect(row).toContainText('Desativado');
      await expect(page.getByRole('button', { name: `Reativar ${name}` })).toBeVisible();
      await expectNothingCut(page, team);

      expect((await elsewhere.request.get('/api/auth/me')).status()).toBe(401);
      const again = await elsewhere.request.post('/api/auth/admin/login', { data: { email, password } });
      expect(again.status()).toBe(401);
    } finally {
      await elsewhere.close();
    }
  });
}

test.describe('day one: the default turmas and the first administrator', () => {
  test('a retired turma leaves every turma choice; a turma nobody uses is deleted, one that had a student is refused with why', async ({
    page,
    school,
  }) => {
    const suffix = Math.random().toString(36).slice(2, 7);
    const retiredName = `Turma Antiga ${suffix}`;
    const unusedName = `Turma Exemplo ${suffix}`;
    const usedName = `Turma Usada ${suffix}`;
    const createTurma = async (name: string) => {
      const response = await school.admin.post('/api/admin/turmas', { data: { name } });
      expect(response.status(), await response.text()).toBe(201);
      return ((await response.json()) as { turma: { id: string } }).turma.id;
    };
    const retiredId = await createTurma(retiredName);
    expect((await school.admin.patch(`/api/admin/turmas/${retiredId}`, { data: { retired: true } })).status()).toBe(200);
    await createTurma(unusedName);
    await createTurma(usedName);
    const left = await school.createStudent({ grade: usedName });
    expect((await school.admin.delete(`/api/admin/students/${left.id}`)).status()).toBe(200);

    await loginViaApi(page, 'admin');
    // 'Turma inteira', the students' filter and the new student's turma offer the active turmas only.
    await navigate(page, '/admin/meritus');
    await expect(page.getByLabel('Turma inteira').locator('option', { hasText: unusedName })).toHaveCount(1);
    await expect(page.getByLabel('Turma inteira').locator('option', { hasText: retiredName })).toHaveCount(0);
    await navigate(page, '/admin/students');
    const filter = page.getByRole('combobox', { name: 'Filtrar por turma' });
    await expect(filter.locator('option', { hasText: unusedName })).toHaveCount(1);
    await expect(filter.locator('option', { hasText: retiredName })).toHaveCount(0);
    await page.getByRole('button', { name: 'Adicionar Aluno' }).first().click();
    const form = page.getByRole('dialog', { name: 'Adicionar Aluno' });
    await expect(form.getByLabel('Turma').locator('option', { hasText: unusedName })).toHaveCount(1);
    await expect(form.getByLabel('Turma').locator('option', { hasText: retiredName })).toHaveCount(0);
    await page.keyboard.press('Escape');

    // Configurações lists it (retired), and deletes the one nobody uses.
    await navigate(page, '/admin/settings');
    const list = page.getByRole('list', { name: 'Turmas da escola' });
    await expect(list.getByText(retiredName)).toBeVisible();
    await page.getByRole('button', { name: `Apagar ${unusedName}` }).click();
    const confirm = page.getByRole('dialog', { name: `Apagar a turma ${unusedName}?` });
    await confirm.getByRole('button', { name: 'Apagar turma' }).click();
    await expect(page.getByText(`Turma ${unusedName} apagada`)).toBeVisible();
    await expect(list.getByText(unusedName)).toHaveCount(0);

    // A turma whose student was removed keeps them in its history: refused, with the reason under it.
    await page.getByRole('button', { name: `Apagar ${usedName}` }).click();
    await page
      .getByRole('dialog', { name: `Apagar a turma ${usedName}?` })
      .getByRole('button', { name: 'Apagar turma' })
      .click();
    await expect(list.getByRole('alert')).toHaveText(
      'Esta turma tem ou teve estudantes, que ficam no histórico dela: desative-a em vez de apagar',
    );
    await expect(list.getByText(usedName)).toBeVisible();
    // A turma with students offers no deletion at all.
    await expect(page.getByRole('button', { name: 'Apagar 1º EM - Turma A' })).toHaveCount(0);
  });

  test("the first administrator gives their own name in Meu perfil: the dashboard greets them by it, and their operations say 'por' it", async ({
    page,
    school,
  }) => {
    const student = await school.createStudent();
    await loginViaApi(page, 'admin');
    const newName = 'Lúcia Andrade';
    try {
      await navigate(page, '/admin');
      await expect(page.getByRole('heading', { level: 1, name: 'Olá, Administrador!' })).toBeVisible();
      if (!(await page.getByRole('link', { name: /Meu perfil$/ }).isVisible()))
        await page.getByRole('button', { name: 'Abrir menu' }).click();
      await page.getByRole('link', { name: /Meu perfil$/ }).click();
      await page.getByLabel('Nome').fill(newName);
      await page.getByRole('button', { name: 'Salvar nome' }).click();
      await expect(page.getByText('Seu nome foi salvo')).toBeVisible();
      await expect(page.getByTestId('user-name')).toHaveText(newName);

      await page.getByRole('link', { name: 'Dashboard' }).click();
      await expect(page.getByRole('heading', { level: 1, name: 'Olá, Lúcia!' })).toBeVisible();
      const description = `Olimpíada de matemática ${Math.random().toString(36).slice(2, 7)}`;
      const award = await page.request.post(`/api/admin/students/${student.id}/meritus`, {
        data: { type: 'reward', amount: 2, description },
        headers: { 'Idempotency-Key': randomUUID() },
      });
      expect(award.status(), await award.text()).toBe(201);
      await navigate(page, '/admin/recent-operations');
      await page.getByLabel('Buscar operações').fill(description);
      await expect(page.getByTestId('live-operation').getByText(`por ${newName}`)).toBeVisible();
    } finally {
      await page.request.patch('/api/admin/me', { data: { name: DEMO.admin.name } });
    }
  });
});
for (const size of [
  { name: 'desktop', viewport: { width: 1440, height: 900 } },
  { name: 'phone', viewport: { width: 390, height: 844 } },
]) {
  test(`a school that requires it (${size.name}): a student signing in with a password the staff gave chooses their own before the area opens`, async ({
    page,
    browser,
    school,
  }) => {
    const student = await school.createStudent();
    await withSettings(
      school,
      async (current) => {
        if (size.name === 'phone') {
          await school.admin.put('/api/admin/settings/rules', { data: { ...current.rules, studentsChangeResetPassword: true } });
          return;
        }
        // On the settings screen, as the coordination turns it on.
        await loginViaApi(page, 'admin');
        await navigate(page, '/admin/settings');
        const rule = page.getByRole('checkbox', { name: 'Alunos trocam a senha recebida no primeiro acesso' });
        await expect(rule).not.toBeChecked();
        await rule.check();
        await page.getByRole('button', { name: 'Salvar regras' }).click();
        await expect(page.getByText('Regras salvas')).toBeVisible();
      },
      async () => {
        const reset = await school.admin.post(`/api/admin/students/${student.id}/password`);
        expect(reset.status()).toBe(200);
        const { password } = (await reset.json()) as { password: string };

        const context = await browser.newContext({ viewport: size.viewport });
        try {
          const studentPage = await context.newPage();
          await studentPage.goto('/login');
          await studentPage.getByRole('tab', { name: 'Estudante' }).click();
          await studentPage.getByLabel('Matrícula').fill(student.studentId);
          await studentPage.getByLabel('Senha', { exact: true }).fill(password);
          await studentPage.getByRole('button', { name: 'Entrar' }).click();
          await expect(studentPage.getByRole('heading', { name: 'Crie a sua senha' })).toBeVisible({ timeout: 30_000 });
          await expect(studentPage.getByRole('link', { name: 'Meu Perfil' })).toHaveCount(0);
          // The area's reads are refused meanwhile, in words.
          const refused = await studentPage.request.get('/api/me/summary');
          expect(refused.status()).toBe(403);
          expect(((await refused.json()) as { error: { message: string } }).error.message).toBe(
            'Troque a senha que você recebeu antes de continuar: vá em Alterar senha.',
          );
          await studentPage.screenshot({ path: `/tmp/fm-access/forced-change-${size.name}.png` });
          await expectNoSeriousA11yViolations(studentPage);

          await studentPage.getByLabel('Senha provisória (a do cartão)').fill(password);
          await studentPage.getByLabel('Nova senha', { exact: true }).fill('escolhi-esta-senha');
          await studentPage.getByLabel('Repita a nova senha').fill('escolhi-esta-senha');
          await studentPage.getByRole('button', { name: 'Salvar nova senha' }).click();
          await expect(studentPage.getByRole('heading', { level: 1, name: /^Olá, / })).toBeVisible({ timeout: 30_000 });
          await expect(studentPage.getByRole('heading', { name: 'Crie a sua senha' })).toHaveCount(0);
          expect((await studentPage.request.get('/api/me/summary')).status()).toBe(200);
          await studentPage.screenshot({ path: `/tmp/fm-access/forced-change-done-${size.name}.png` });
        } finally {
          await context.close();
        }
      },
    );
  });
}
