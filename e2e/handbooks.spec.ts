import { readFileSync } from 'node:fs';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { ACCOUNTS, loginViaUi, signIn } from './helpers';

/** The generated handbook screens (/handbooks/table/:handbookType): list, filters, columns, forms, export. */

async function adminToken(request: APIRequestContext): Promise<string> {
  const login = await request.post('/api/v1/auth/login', { data: { username: 'admin', password: ACCOUNTS.admin } });
  return ((await login.json()) as { token: string }).token;
}

async function tableApi<T>(request: APIRequestContext, url: string, data: unknown): Promise<T> {
  const response = await request.post(url, { data, headers: { authorization: `Bearer ${await adminToken(request)}` } });
  expect(response.status(), await response.text()).toBe(200);
  return (await response.json()) as T;
}

const headers = (page: Page) => page.getByTestId('handbook-table').locator('thead th');
const rows = (page: Page) => page.getByTestId('handbook-table').locator('tbody tr');

test.describe('handbooks', () => {
  test.describe.configure({ timeout: 90_000 });

  test('the menu opens a handbook; the picker switches to another; the search filters the rows', async ({ page }) => {
    await loginViaUi(page, 'admin');
    await page.getByRole('menuitem', { name: 'Справочники' }).click();
    await expect(page).toHaveURL(/\/handbooks\/table\/agency$/);
    await expect(rows(page).first()).toBeVisible();
    await page.getByTestId('handbook-picker').locator('..').click();
    await page.getByRole('option', { name: 'Остановки', exact: true }).click();
    await expect(page).toHaveURL(/\/handbooks\/table\/stops$/);
    await expect(headers(page).filter({ hasText: 'Наименование' })).toBeVisible();
    await expect(rows(page)).not.toHaveCount(0);

    await page.getByPlaceholder('Поиск').fill('Чкаловская');
    await expect(async () => {
      const names = await rows(page).allInnerTexts();
      expect(names.length).toBeGreaterThan(0);
      for (const name of names) expect(name).toContain('Чкаловская');
    }).toPass();
  });

  test('a user who may only read a handbook sees its rows without add, import or editing', async ({ page }) => {
    await loginViaUi(page, 'viewer');
    await page.getByRole('menuitem', { name: 'Справочники' }).click();
    await expect(page).toHaveURL(/\/handbooks\/table\/\w+$/);
    await expect(rows(page).first()).toBeVisible();
    await expect(page.getByTestId('handbook-export')).toBeVisible();
    await expect(page.getByTestId('handbook-create')).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Импорт' })).toHaveCount(0);
    const url = page.url();
    await rows(page).first().locator('td').nth(1).click();
    await expect(page).toHaveURL(url);
  });

  test('a hidden column stays hidden after a reload; the last visible column cannot be hidden', async ({ page }) => {
    await signIn(page, 'admin');
    await page.goto('/handbooks/table/marshtype');
    await expect(rows(page).first()).toBeVisible();
    const shown = await headers(page).allInnerTexts();
    expect(shown.join('|')).toContain('Наименование');

    await page.getByTestId('handbook-columns').click();
    await page.getByTestId('column-title').click();
    await page.keyboard.press('Escape');
    await expect(headers(page).filter({ hasText: 'Наименование' })).toHaveCount(0);
    await page.reload();
    await expect(rows(page).first()).toBeVisible();
    await expect(headers(page).filter({ hasText: 'Наименование' })).toHaveCount(0);

    // only ID is left: turning it off is ignored
    await page.getByTestId('handbook-columns').click();
    await page.getByTestId('column-id').click({ force: true });
    await page.keyboard.press('Escape');
    await expect(headers(page).filter({ hasText: 'ID' })).toHaveCount(1);

    await page.getByTestId('handbook-columns').click();
    await page.getByTestId('column-title').click();
    await page.keyboard.press('Escape');
    await expect(headers(page).filter({ hasText: 'Наименование' })).toHaveCount(1);
  });

  test('a recorder with an invalid IP is refused with the spec message and left unchanged', async ({ page, request }) => {
    const before = await tableApi<{ list: { id: number; ip: string | null }[] }>(request, '/api/table/list', {
      config: { type: 'dvr' },
      perPage: 1,
    });
    const recorder = before.list[0];
    await signIn(page, 'admin');
    await page.goto(`/handbooks/table/dvr/${recorder.id}`);
    const ip = page.getByLabel('IP-адрес', { exact: true });
    await expect(ip).toHaveValue(recorder.ip ?? '');
    await ip.fill('300.1.1.1');
    await page.getByRole('button', { name: 'Сохранить' }).click();
    await expect(page.getByText('Неверный формат IP-адреса')).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`/handbooks/table/dvr/${recorder.id}$`));
    const after = await tableApi<{ list: { ip: string | null }[] }>(request, '/api/table/list', {
      config: { type: 'dvr' },
      filters: { id: recorder.id },
    });
    expect(after.list[0].ip).toBe(recorder.ip);
  });

  test('a carrier is created, edited and deleted through the forms; out-of-range numbers are refused', async ({ page }) => {
    const title = `Перевозчик e2e ${Date.now().toString(36)}`;
    await signIn(page, 'admin');
    await page.goto('/handbooks/table/agency');
    await page.getByTestId('handbook-create').click();
    await expect(page).toHaveURL(/\/handbooks\/table\/agency\/create$/);
    await page.getByRole('textbox', { name: 'Наименование' }).fill(title);
    await page.getByRole('spinbutton', { name: 'Код перевозчика' }).fill('40000');
    await page.getByRole('button', { name: 'Сохранить' }).click();
    await expect(page.getByText('Значение должно быть от 0 до 32767')).toBeVisible();
    await page.getByRole('spinbutton', { name: 'Код перевозчика' }).fill('321');
    await page.getByRole('button', { name: 'Сохранить' }).click();
    await expect(page).toHaveURL(/\/handbooks\/table\/agency$/);

    await page.getByPlaceholder('Поиск').fill(title);
    await expect(rows(page)).toHaveCount(1);
    await rows(page).first().getByText(title).click();
    await expect(page).toHaveURL(/\/handbooks\/table\/agency\/\d+$/);
    await page.getByRole('textbox', { name: 'Телефон' }).fill('+7 812 000-00-00');
    await page.getByRole('button', { name: 'Сохранить' }).click();
    await expect(page).toHaveURL(/\/handbooks\/table\/agency(\?.*)?$/);
    await expect(rows(page).first()).toContainText('+7 812 000-00-00');

    await rows(page).first().getByText(title).click();
    await page.getByRole('button', { name: 'Удалить' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Да' }).click();
    await expect(page).toHaveURL(/\/handbooks\/table\/agency(\?.*)?$/);
    await page.getByPlaceholder('Поиск').fill(title);
    await expect(page.getByText('результаты не найдены')).toBeVisible();
  });

  test("a handbook date is typed as DD.MM.YYYY in the picker's field, saved as YYYY-MM-DD and listed as DD.MM.YYYY", async ({
    page,
    request,
  }) => {
    await signIn(page, 'admin');
    await page.goto('/handbooks/table/holidays/create');
    const date = page.getByRole('group', { name: 'Дата' });
    await expect(date).toBeVisible();
    await date.getByRole('spinbutton', { name: 'День' }).click();
    await page.keyboard.type('0905');
    await page.getByRole('combobox', { name: 'Расписание дня недели' }).click();
    await page.getByRole('option', { name: 'Суббота' }).click();
    await page.getByRole('button', { name: 'Сохранить' }).click();
    // the year is missing: the form names the field and saves nothing
    await expect(page.getByText('Неверная дата (ГГГГ-ММ-ДД или ДД.ММ.ГГГГ)')).toBeVisible();
    await expect(page).toHaveURL(/\/holidays\/create$/);
    await date.getByRole('spinbutton', { name: 'Год' }).click();
    await page.keyboard.type('2031');
    await expect(date).toContainText('09.05.2031');
    await expect(page.getByText('Неверная дата (ГГГГ-ММ-ДД или ДД.ММ.ГГГГ)')).toHaveCount(0);
    await page.getByRole('button', { name: 'Сохранить' }).click();
    await expect(page).toHaveURL(/\/handbooks\/table\/holidays(\?.*)?$/);
    await expect(rows(page).first()).toContainText('09.05.2031');
    const saved = await tableApi<{ list: { date: string; dow: number }[] }>(request, '/api/table/list', {
      config: { type: 'holidays' },
      sort: { field: 'id', order: 'DESC' },
      perPage: 1,
    });
    expect(saved.list[0]).toMatchObject({ date: '2031-05-09', dow: 6 });

    // the list's date filters are pickers too: the URL keeps YYYY-MM-DD, the field shows DD.MM.YYYY
    await page.goto(`/handbooks/table/holidays?filter=${encodeURIComponent(JSON.stringify({ date_gte: '2031-05-09' }))}`);
    const from = page.getByRole('group', { name: 'Дата: от' });
    await expect(from).toContainText('09.05.2031');
    await expect(rows(page).first()).toContainText('09.05.2031');
    for (const text of await rows(page).allInnerTexts()) expect(text).toMatch(/\d\d\.\d\d\.20(3[1-9]|[4-9]\d)/);
  });

  test("schedule times show their variant's date as DD.MM.YYYY in the link cells and suggestions", async ({ page, request }) => {
    const times = await tableApi<{ list: { RaspVariant_id: number }[] }>(request, '/api/table/list', {
      config: { type: 'rasptimes' },
      perPage: 1,
    });
    const variants = await tableApi<{ list: { id: number; srv_id: number; startdate: string }[] }>(request, '/api/table/list', {
      config: { type: 'raspvariants' },
      filters: { id: [times.list[0].RaspVariant_id] },
    });
    const variant = variants.list[0];
    const [year, month, day] = variant.startdate.split('-');
    const label = `${variant.srv_id} ${day}.${month}.${year}`;
    await signIn(page, 'admin');
    await page.goto(`/handbooks/table/rasptimes?filter=${encodeURIComponent(JSON.stringify({ RaspVariant_id: [variant.id] }))}`);
    await expect(rows(page).first()).toContainText(label);
    await expect(page.getByTestId('handbook-table')).not.toContainText(variant.startdate);

    await rows(page).first().locator('td').nth(1).click();
    await expect(page).toHaveURL(/\/handbooks\/table\/rasptimes\/\d+$/);
    const input = page.getByRole('combobox', { name: 'Вариант расписания' });
    await expect(input).toHaveValue(label);
    await input.fill(`${day}.${month}.${year}`);
    await expect(page.getByRole('option', { name: label }).first()).toBeVisible();
  });

  test('the export downloads the filtered handbook as CSV with the import headers', async ({ page }) => {
    await signIn(page, 'admin');
    await page.goto('/handbooks/table/stops');
    await page.getByPlaceholder('Поиск').fill('Чкаловская');
    await expect(rows(page).first()).toContainText('Чкаловская');
    await page.getByTestId('handbook-export').click();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('handbook-export-csv').click()]);
    expect(download.suggestedFilename()).toBe('stops.csv');
    const text = readFileSync((await download.path())!, 'utf8');
    expect(text.startsWith('\uFEFF')).toBe(true);
    const lines = text.slice(1).trim().split(/\r?\n/);
    expect(lines[0]).toContain('stop_id;stop_name');
    expect(lines.length).toBeGreaterThan(1);
    for (const line of lines.slice(1)) expect(line).toContain('Чкаловская');
  });
});
