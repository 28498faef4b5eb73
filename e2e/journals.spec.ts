import { readFileSync } from 'node:fs';
import ExcelJS from 'exceljs';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { READ, UPDATE } from '../src/shared/permissions';
import { ACCOUNTS, loginViaUi, signIn } from './helpers';

/** The journals (/journal/*) on the report scaffold: filters, build, sort, the before/after view, export. */
const unique = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;

async function asAdmin(request: APIRequestContext, method: 'post' | 'put', url: string, data: unknown): Promise<{ id: number }> {
  const login = await request.post('/api/v1/auth/login', { data: { username: 'admin', password: ACCOUNTS.admin } });
  const { token } = (await login.json()) as { token: string };
  const response = await request[method](url, { data, headers: { authorization: `Bearer ${token}`, 'x-page-id': '/roles' } });
  expect(response.status(), await response.text()).toBe(200);
  return (await response.json()) as { id: number };
}

const rowTexts = async (page: Page) => page.getByTestId('report-table').locator('tbody tr').allInnerTexts();

/** Types a date-time into a MUI X picker field: its sections take the digits in order. */
async function typeDateTime(page: Page, label: string, digits: string) {
  const field = page.getByRole('group', { name: label });
  await field.locator('[role="spinbutton"]').first().click();
  await page.keyboard.type(digits);
}

test.describe('journals', () => {
  test.describe.configure({ timeout: 60_000 });

  test('user actions: filtered by action, a row opens its before/after comparison', async ({ page, request }) => {
    const id = unique();
    const role = await asAdmin(request, 'post', '/api/v1/roles', { name: `Журнал ${id}`, permissions: { '/users': READ } });
    await asAdmin(request, 'put', `/api/v1/roles/${role.id}`, { permissions: { '/users': READ | UPDATE, '/roles': READ } });
    await signIn(page, 'admin');
    await page.goto('/journal/useractions');
    const table = page.getByTestId('report-table');
    await expect(table.locator('tbody tr').first()).toBeVisible();
    await page.getByRole('combobox', { name: 'Действие' }).click();
    await page.getByRole('option', { name: 'Изменение' }).click();
    await page.keyboard.press('Escape');
    const filtered = page.waitForRequest(
      (r) => r.url().includes('/api/v1/journals/useractions?') && new URL(r.url()).searchParams.get('type') === 'update',
    );
    await page.getByTestId('report-build').click();
    await filtered;
    expect(new URL(page.url()).searchParams.get('type')).toBe('update');
    const row = table.locator('tbody tr', { hasText: `Роль № ${role.id}` });
    await expect(row).toHaveCount(1);
    await expect(row).toContainText('Изменение');
    await expect(row).toContainText(/\d{2}\.\d{2}\.\d{4} \d{2}:\d{2}:\d{2}/);
    await expect(row).toContainText('/roles');
    await row.click();
    const diff = page.getByTestId('diff-table');
    await expect(diff.locator('tr[data-kind="changed"]', { hasText: 'permissions./users' })).toContainText(String(READ | UPDATE));
    await expect(diff.locator('tr[data-kind="added"]', { hasText: 'permissions./roles' })).toBeVisible();
    await expect(diff.locator('tr[data-kind="same"]')).toHaveCount(0);
    await page.getByLabel('Показать и неизменённые поля').check();
    await expect(diff.locator('tr[data-kind="same"]', { hasText: 'name' })).toBeVisible();
  });

  test('a period typed in the date pickers is kept in the URL: a reload shows the same rows, exported as XLSX', async ({ page }) => {
    await signIn(page, 'admin');
    await page.goto('/journal/useractions');
    await expect(page.getByTestId('report-table').locator('tbody tr').first()).toBeVisible();
    // today in the browser's zone, Europe/Moscow (UTC+3, playwright.config.ts)
    const today = new Date(Date.now() + 3 * 3_600_000);
    const ddmmyyyy = `${String(today.getUTCDate()).padStart(2, '0')}${String(today.getUTCMonth() + 1).padStart(2, '0')}${today.getUTCFullYear()}`;
    await typeDateTime(page, 'С', `${ddmmyyyy}0000`);
    await typeDateTime(page, 'По', `${ddmmyyyy}2359`);
    const built = page.waitForRequest(
      (r) => r.url().includes('/api/v1/journals/useractions?') && new URL(r.url()).searchParams.has('from'),
    );
    await page.getByTestId('report-build').click();
    const from = new URL((await built).url()).searchParams.get('from')!;
    expect(new Date(from).getTime()).toBe(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate()) - 3 * 3_600_000);
    await expect(page.getByTestId('report-table').locator('tbody tr').first()).toBeVisible();
    const before = await rowTexts(page);
    expect(new URL(page.url()).searchParams.get('from')).toBe(from);

    await page.reload();
    await expect(page.getByTestId('report-table').locator('tbody tr').first()).toBeVisible();
    expect(await rowTexts(page)).toEqual(before);
    await expect(page.getByRole('group', { name: 'С' })).toContainText(
      `${ddmmyyyy.slice(0, 2)}.${ddmmyyyy.slice(2, 4)}.${ddmmyyyy.slice(4)}`,
    );

    const [exportRequest, download] = await Promise.all([
      page.waitForRequest('**/api/v1/journals/useractions/export**'),
      page.waitForEvent('download'),
      page.getByTestId('report-export-xlsx').click(),
    ]);
    expect(exportRequest.headers().authorization).toMatch(/^Bearer /);
    expect(new URL(exportRequest.url()).searchParams.get('from')).toBe(from);
    expect(download.suggestedFilename()).toMatch(/^useractions-\d{4}-\d{2}-\d{2}\.xlsx$/);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(readFileSync(await download.path()) as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0];
    expect(sheet.getRow(1).getCell(2).value).toBe('Дата и время');
    expect(sheet.rowCount - 1).toBe(before.length < 30 ? before.length : sheet.rowCount - 1);
    expect(String(sheet.getRow(2).getCell(2).value)).toMatch(
      new RegExp(`^${ddmmyyyy.slice(0, 2)}\\.${ddmmyyyy.slice(2, 4)}\\.${ddmmyyyy.slice(4)} `),
    );
  });

  test('the CSV export downloads the same filters, with the session token', async ({ page }) => {
    await signIn(page, 'admin');
    await page.goto('/journal/useractions');
    await expect(page.getByTestId('report-table').locator('tbody tr').first()).toBeVisible();
    const [request, download] = await Promise.all([
      page.waitForRequest('**/api/v1/journals/useractions/export**'),
      page.waitForEvent('download'),
      page.getByTestId('report-export-csv').click(),
    ]);
    expect(new URL(request.url()).searchParams.get('sortField')).toBe('at');
    expect(new URL(request.url()).searchParams.get('format')).toBe('csv');
    expect(download.suggestedFilename()).toMatch(/^useractions-\d{4}-\d{2}-\d{2}\.csv$/);
    const text = readFileSync(await download.path(), 'utf8');
    expect(text).toContain('Дата и время');
    expect(text).toContain('login');
  });

  test('sorting reaches the server; a period with no rows says so and keeps the filters', async ({ page }) => {
    await signIn(page, 'admin');
    await page.goto('/journal/useractions');
    const table = page.getByTestId('report-table');
    await expect(table.locator('tbody tr').first()).toBeVisible();
    const sorted = page.waitForRequest(
      (r) => r.url().includes('/api/v1/journals/useractions?') && new URL(r.url()).searchParams.get('sortOrder') === 'ASC',
    );
    await table.getByText('Дата и время').click();
    expect(new URL((await sorted).url()).searchParams.get('sortField')).toBe('at');
    await typeDateTime(page, 'С', '010120990000');
    await page.getByTestId('report-build').click();
    await expect(page.getByTestId('report-empty')).toHaveText('Нет данных для выбранных фильтров');
    await expect(page.getByRole('group', { name: 'С' })).toContainText('01.01.2099');
  });

  test('every journal opens with its columns and filters', async ({ page }) => {
    await loginViaUi(page, 'admin');
    const journals: [string, string, string][] = [
      ['/journal/eventsts', 'Гаражный номер', 'Тип'],
      ['/journal/eventspo', 'Важность', 'Тип'],
      ['/journal/video', 'Камера', 'Тип'],
      ['/journal/adas', 'Степень', 'Типы инцидентов'],
    ];
    for (const [path, column, typeFilter] of journals) {
      const listed = page.waitForResponse((r) => r.url().includes(`/api/v1/journals/${path.split('/')[2]}?`));
      await page.goto(path);
      expect((await listed).status()).toBe(200);
      await expect(page.getByTestId('report-table').or(page.getByTestId('report-empty'))).toBeVisible();
      await expect(page.getByTestId('report-picker-vehicle')).toBeVisible();
      await expect(
        page
          .getByRole('combobox', { name: typeFilter })
          .or(page.getByRole('textbox', { name: typeFilter }))
          .or(page.getByTestId('report-picker-type')),
      ).toBeVisible();
      if (await page.getByTestId('report-table').count()) await expect(page.getByTestId('report-table')).toContainText(column);
    }
    await page.goto('/journal/eventsts');
    await page.getByRole('combobox', { name: 'Тип' }).click();
    await expect(page.getByRole('option', { name: 'Подключение' })).toBeVisible();
    await expect(page.getByRole('option', { name: 'Ошибка прохода' })).toBeVisible();
  });
});
