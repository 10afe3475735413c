import type { Page } from '@playwright/test';
import { test, expect, loginViaApi, navigate, getJson, type TestStudent } from './fixtures.ts';
import type { SchoolSettings } from '../src/shared/settings.ts';

const PHONE = { width: 390, height: 844 };

async function pickRecipient(scope: Page | ReturnType<Page['getByRole']>, recipient: TestStudent) {
  await scope.getByRole('searchbox', { name: 'Buscar estudante' }).fill(recipient.studentId);
  await scope.getByRole('radio', { name: new RegExp(recipient.name) }).check();
}

test.describe('a transfer is confirmed, then has its Comprovante', () => {
  test('Méritus: the confirmation shows recipient, amount, note and balance after; the receipt has date, time and code; it reopens from the history', async ({
    page,
    context,
    school,
  }) => {
    const [me, recipient] = await Promise.all([school.createStudent({ meritus: 50 }), school.createStudent()]);
    await loginViaApi(context, me);
    await navigate(page, '/student/transfer');
    await pickRecipient(page, recipient);
    await page.getByLabel('Valor (M$)').fill('12');
    await page.getByLabel('Descrição (opcional)').fill('Obrigado pelo lanche');
    await page.getByRole('button', { name: 'Transferir', exact: true }).click();

    const sheet = page.getByRole('dialog', { name: 'Confirme a transferência' });
    await expect(sheet.getByTestId('confirm-recipient')).toContainText(recipient.name);
    await expect(sheet.getByTestId('confirm-recipient')).toContainText(recipient.grade);
    await expect(sheet).toContainText('12 M$');
    await expect(sheet).toContainText('Obrigado pelo lanche');
    await expect(sheet.getByText('Saldo depois').locator('..')).toContainText('38 M$');
    // Nothing left yet: 'Voltar' returns to the form as it was.
    expect((await school.balances(me)).meritus).toBe(50);
    await sheet.getByRole('button', { name: 'Voltar' }).click();
    await expect(sheet).toHaveCount(0);
    await expect(page.getByLabel('Valor (M$)')).toHaveValue('12');
    await page.getByRole('button', { name: 'Transferir', exact: true }).click();
    await sheet.getByRole('button', { name: 'Confirmar transferência' }).click();

    await expect(page).toHaveURL(/\/student\/comprovante\?codigo=/);
    const receipt = page.getByTestId('receipt');
    await expect(receipt).toContainText('Transferência realizada');
    await expect(receipt).toContainText('12 M$');
    await expect(receipt).toContainText(recipient.name);
    await expect(receipt).toContainText(me.name);
    await expect(receipt.getByText('Data', { exact: true })).toBeVisible();
    await expect(receipt.getByText('Hora', { exact: true })).toBeVisible();
    const code = (await receipt.getByTestId('receipt-code').textContent())!.trim();
    expect(code).toMatch(/^[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}$/);
    expect((await school.balances(me)).meritus).toBe(38);

    // Shared as an image: where files cannot be shared (this browser), the PNG is downloaded.
    const download = page.waitForEvent('download');
    await receipt.getByRole('button', { name: 'Compartilhar comprovante' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe(`comprovante-${code}.png`);
    const bytes = await (await file.createReadStream()).toArray();
    expect(Buffer.concat(bytes).subarray(1, 4).toString()).toBe('PNG');

    // Reopened later from the history, by the same code; the staff's live feed shows the code too.
    await navigate(page, '/student/recent-operations');
    await page.getByRole('link', { name: `Comprovante ${code}` }).click();
    await expect(page.getByTestId('receipt-code')).toHaveText(code);
    await expect(page.getByTestId('receipt')).not.toContainText('Transferência realizada');
    await loginViaApi(context, 'admin');
    await navigate(page, '/admin/recent-operations');
    await expect(page.getByTestId('operation-code').filter({ hasText: code })).toBeVisible();
  });

  test('Estelecas: the dialog confirms, then opens the Comprovante', async ({ page, context, school }) => {
    const [me, recipient] = await Promise.all([school.createStudent({ estelecas: 5 }), school.createStudent()]);
    await loginViaApi(context, me);
    await navigate(page, '/student/estelecas');
    await page.getByRole('button', { name: 'Transferir Estelecas' }).click();
    const dialog = page.getByRole('dialog', { name: 'Transferir Estelecas' });
    await pickRecipient(dialog, recipient);
    await dialog.getByLabel('Quantidade').fill('2');
    await dialog.getByRole('button', { name: 'Transferir' }).click();
    const sheet = page.getByRole('dialog', { name: 'Confirme a transferência' });
    await expect(sheet).toContainText(recipient.name);
    await expect(sheet).toContainText('2 Estelecas');
    await expect(sheet.getByText('Saldo depois').locator('..')).toContainText('3 Estelecas');
    await sheet.getByRole('button', { name: 'Confirmar transferência' }).click();
    await expect(page.getByTestId('receipt')).toContainText('Você enviou Estelecas');
    await expect(page.getByTestId('receipt')).toContainText(recipient.name);
    expect((await school.balances(me)).estelecas).toBe(3);
  });

  test('with 0 Estelecas the transfer is disabled and says why, pointing to Como ganhar', async ({ page, context, school }) => {
    await loginViaApi(context, await school.createStudent());
    await navigate(page, '/student/estelecas');
    const button = page.getByRole('button', { name: 'Transferir Estelecas' });
    await expect(button).toBeDisabled();
    await expect(button).toHaveAccessibleDescription(/Você ainda não tem Estelecas para transferir/);
    await page.getByRole('link', { name: 'Veja como ganhar' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Como ganhar Méritus e Estelecas' })).toBeVisible();
  });
});

test("'Como ganhar': the default from the school's rules, then the school's own text as plain text, linked from the menu", async ({
  page,
  context,
  school,
}) => {
  const current = await getJson<SchoolSettings>(school.admin, '/api/settings');
  try {
    await school.admin.put('/api/admin/settings/rules', { data: { ...current.rules, howToEarnText: '', transferDailyCap: 321 } });
    await loginViaApi(context, await school.createStudent());
    await navigate(page, '/student');
    await page.getByRole('navigation', { name: 'Menu principal' }).getByRole('link', { name: 'Como ganhar' }).click();
    const text = page.getByTestId('how-to-earn-text');
    await expect(text).toContainText('até 321 M$ por dia');

    await loginViaApi(context, 'admin');
    await navigate(page, '/admin/settings');
    const field = page.getByLabel('Texto para os alunos');
    await field.fill('Participe das aulas.\n\n- Ajude um colega\n- <img src=x onerror="window.__xss=1"><b>negrito</b>');
    await page.getByRole('button', { name: 'Salvar texto' }).click();
    await expect(page.getByText('Regras salvas')).toBeVisible();

    await loginViaApi(context, await school.createStudent());
    await navigate(page, '/student/como-ganhar');
    await expect(text.getByRole('listitem')).toHaveCount(2);
    await expect(text.getByRole('listitem').nth(0)).toHaveText('Ajude um colega');
    await expect(text.getByRole('listitem').nth(1)).toHaveText('<img src=x onerror="window.__xss=1"><b>negrito</b>');
    await expect(text.locator('img, b')).toHaveCount(0);
    expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
  } finally {
    await school.admin.put('/api/admin/settings/rules', { data: current.rules });
  }
});

test.describe('phones', () => {
  test.use({ viewport: PHONE, isMobile: true, hasTouch: true });

  test('a bottom sheet opens on its title, no field focused; a toast rests left of the balance in the app bar', async ({
    page,
    context,
    school,
  }) => {
    const [me, recipient] = await Promise.all([school.createStudent({ estelecas: 3 }), school.createStudent()]);
    await loginViaApi(context, me);
    await navigate(page, '/student/estelecas');
    await page.getByRole('button', { name: 'Transferir Estelecas' }).click();
    const dialog = page.getByRole('dialog', { name: 'Transferir Estelecas' });
    await expect(dialog.getByRole('heading', { name: 'Transferir Estelecas' })).toBeFocused();
    expect(await page.evaluate(() => document.activeElement?.matches('input, textarea, select'))).toBe(false);

    // The drawer too opens without focusing a control that raises a keyboard.
    await dialog.getByRole('button', { name: 'Fechar' }).click();
    await page.getByRole('button', { name: 'Abrir menu' }).click();
    await expect(page.getByRole('dialog', { name: 'Menu de navegação' })).toBeFocused();
    await page.getByRole('button', { name: 'Fechar menu' }).click();

    await page.getByRole('button', { name: 'Transferir Estelecas' }).click();
    await pickRecipient(dialog, recipient);
    await dialog.getByLabel('Quantidade').fill('1');
    await dialog.getByRole('button', { name: 'Transferir' }).click();
    await page.getByRole('button', { name: 'Confirmar transferência' }).click();
    const toast = page.locator('[data-rht-toaster] [role="status"]').filter({ hasText: recipient.name });
    await expect(toast).toBeVisible();
    const [toastBox, balanceBox] = await Promise.all([toast.boundingBox(), page.getByTestId('app-bar-balance').boundingBox()]);
    expect(toastBox!.x + toastBox!.width, 'the toast ends left of the balance').toBeLessThanOrEqual(balanceBox!.x);
  });
});
