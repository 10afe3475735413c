import { test, expect, loginViaApi, navigate } from './fixtures.ts';
import { expectNoSeriousA11yViolations } from './axe.ts';

/** Configurações › Ano letivo (issue 38). Nothing is saved here: the demo school's years are shared by the whole run. */
for (const size of [
  { name: 'desktop', viewport: { width: 1440, height: 900 } },
  { name: 'phone', viewport: { width: 390, height: 844 } },
]) {
  test(`the school years in the settings (${size.name}): the current year, a new year's form and its refusals beside their fields`, async ({
    page,
  }) => {
    await page.setViewportSize(size.viewport);
    await loginViaApi(page, 'admin');
    await navigate(page, '/admin/settings');
    await expect(page.getByRole('heading', { name: 'Ano letivo', exact: true })).toBeVisible();
    const years = page.getByRole('list', { name: 'Anos letivos' });
    const current = years.getByRole('listitem').filter({ hasText: 'Atual' });
    await expect(current.first()).toContainText(/Ano letivo \d{4}/);
    await expect(
      current
        .first()
        .getByRole('list', { name: /^Períodos de Ano letivo/ })
        .getByRole('listitem'),
    ).toHaveCount(4);

    await page.getByRole('button', { name: 'Novo ano letivo' }).click();
    const form = page.getByRole('form', { name: 'Novo ano letivo' });
    await expect(form.getByLabel('Nome')).toHaveValue(/^Ano letivo \d{4}$/);
    await expect(form.getByLabel('Início do 4º bimestre')).toBeVisible();
    await expectNoSeriousA11yViolations(page);

    // Trimestres: three periods; a period past the year's end is refused beside it, before anything is sent.
    await form.getByLabel('Divisão do ano').selectOption('trimestre');
    await expect(form.getByLabel('Início do 3º trimestre')).toBeVisible();
    await expect(form.getByLabel('Início do 4º bimestre')).toHaveCount(0);
    const yearText = (await form.getByLabel('Início do ano letivo').inputValue()).slice(0, 4);
    await form.getByLabel('Início do 1º trimestre').fill(`${yearText}-01-01`);
    await form.getByLabel('Fim do 1º trimestre').fill(`${yearText}-04-30`);
    await form.getByLabel('Início do 2º trimestre').fill(`${yearText}-05-01`);
    await form.getByLabel('Fim do 2º trimestre').fill(`${yearText}-08-31`);
    await form.getByLabel('Início do 3º trimestre').fill(`${yearText}-09-01`);
    await form.getByLabel('Fim do 3º trimestre').fill(`${Number(yearText) + 1}-01-15`);
    await form.getByRole('button', { name: 'Salvar ano letivo' }).click();
    await expect(form.getByText('Cada período deve ficar dentro das datas do ano letivo')).toBeVisible();

    // Dates over the current year's: the server's refusal names it.
    const currentName = (
      await current
        .first()
        .getByText(/^Ano letivo \d{4}$/)
        .innerText()
    ).trim();
    const currentYear = currentName.slice(-4);
    await form.getByLabel('Início do ano letivo').fill(`${currentYear}-12-01`);
    await form.getByLabel('Início do 1º trimestre').fill(`${currentYear}-12-01`);
    await form.getByLabel('Fim do 3º trimestre').fill(`${yearText}-12-31`);
    await form.getByRole('button', { name: 'Salvar ano letivo' }).click();
    await expect(form.getByRole('alert').filter({ hasText: `As datas se sobrepõem às do ${currentName}` })).toBeVisible();
    await page.screenshot({ path: `/tmp/school-year/settings-${size.name}.png`, fullPage: false });
    await form.getByRole('button', { name: 'Cancelar' }).click();
    await expect(page.getByRole('button', { name: 'Novo ano letivo' })).toBeVisible();
  });
}
