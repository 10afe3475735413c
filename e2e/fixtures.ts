import { expect, type APIRequestContext, type BrowserContext, type Page } from '@playwright/test';

export const DEMO = {
  student: { studentId: '2024001', password: 'aluno123' },
  admin: { email: 'admin@escola.com', password: 'admin123' },
} as const;

export type Role = 'student' | 'admin';

export const HOME: Record<Role, string> = { student: '/student', admin: '/admin' };

/** Signs in through the login form, like a person would, and waits for the home screen. */
export async function login(page: Page, role: Role): Promise<void> {
  await page.goto('/login');
  if (role === 'student') {
    await page.getByRole('tab', { name: 'Estudante' }).click();
    await page.getByLabel('Matrícula').fill(DEMO.student.studentId);
    await page.getByLabel('Senha', { exact: true }).fill(DEMO.student.password);
  } else {
    await page.getByRole('tab', { name: 'Administrador' }).click();
    await page.getByLabel('Email').fill(DEMO.admin.email);
    await page.getByLabel('Senha', { exact: true }).fill(DEMO.admin.password);
  }
  await page.getByRole('button', { name: 'Entrar' }).click();
  await expect(page).toHaveURL(HOME[role]);
}

/**
 * Signs in through the API (for test setup). With a BrowserContext the session cookie
 * lands in the browser; with an APIRequestContext it is kept for later `request` calls.
 */
export async function loginViaApi(target: APIRequestContext | BrowserContext, role: Role): Promise<void> {
  const request = 'request' in target ? target.request : target;
  const response =
    role === 'student'
      ? await request.post('/api/auth/student/login', { data: DEMO.student })
      : await request.post('/api/auth/admin/login', { data: DEMO.admin });
  expect(response.status(), await response.text()).toBe(200);
}

/** Opens a path of the app and waits until the page has rendered past the session check. */
export async function navigate(page: Page, path: string): Promise<void> {
  await page.goto(path);
  await expect(page.getByText('Carregando...', { exact: true })).toHaveCount(0);
}
