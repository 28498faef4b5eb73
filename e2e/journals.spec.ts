import { readFileSync } from 'node:fs';
import { expect, test, type APIRequestContext } from '@playwright/test';
import { READ, UPDATE } from '../src/shared/permissions';
import { ACCOUNTS, loginViaUi } from './helpers';

/** The journals (/journal/*): filters, sort, paging, the before/after view, the CSV export. */
const unique = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;

async function asAdmin(request: APIRequestContext, method: 'post' | 'put', url: string, data: unknown): Promise<{ id: number }> {
  const login = await request.post('/api/v1/auth/login', { data: { username: 'admin', password: ACCOUNTS.admin } });
  const { token } = (await login.json()) as { token: string };
  const response = await request[method](url, { data, headers: { authorization: `Bearer ${token}`, 'x-page-id': '/roles' } });
  expect(response.status(), await response.text()).toBe(200);
  return (await response.json()) as { id: number };
}

test.describe('journals', () => {
  test.describe.configure({ timeout: 60_000 });

  test('user actions: filtered by action, a row opens its before/after comparison', async ({ page, request }) => {
    const id = unique();
    const role = await asAdmin(request, 'post', '/api/v1/roles', { name: `Журнал ${id}`, permissions: { '/users': READ } });
    await asAdmin(request, 'put', `/api/v1/roles/${role.id}`, { permissions: { '/users': READ | UPDATE, '/roles': READ } });
    await loginViaUi(page, 'admin');
    await page.goto('/journal/useractions');
    const table = page.getByTestId('journal-table');
    await expect(table.locator('tbody tr').first()).toBeVisible();
    await page.getByRole('combobox', { name: 'Действие' }).click();
    await page.getByRole('option', { name: 'Изменение' }).click();
    await page.keyboard.press('Escape');
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

  test('the export downloads the CSV of the same filters, with the session token', async ({ page }) => {
    await loginViaUi(page, 'admin');
    await page.goto('/journal/useractions');
    await expect(page.getByTestId('journal-table').locator('tbody tr').first()).toBeVisible();
    const [request, download] = await Promise.all([
      page.waitForRequest('**/api/v1/journals/useractions/export**'),
      page.waitForEvent('download'),
      page.getByTestId('journal-export').click(),
    ]);
    expect(request.headers().authorization).toMatch(/^Bearer /);
    expect(new URL(request.url()).searchParams.get('sortField')).toBe('at');
    expect(download.suggestedFilename()).toMatch(/^useractions-\d{4}-\d{2}-\d{2}\.csv$/);
    const text = readFileSync(await download.path(), 'utf8');
    expect(text).toContain('Дата и время');
    expect(text).toContain('login');
  });

  test('sorting and the period filter reach the server', async ({ page }) => {
    await loginViaUi(page, 'admin');
    await page.goto('/journal/useractions');
    const table = page.getByTestId('journal-table');
    await expect(table.locator('tbody tr').first()).toBeVisible();
    const sorted = page.waitForRequest((r) => r.url().includes('/api/v1/journals/useractions?') && new URL(r.url()).searchParams.get('sortOrder') === 'ASC');
    await table.getByText('Дата и время').click();
    expect(new URL((await sorted).url()).searchParams.get('sortField')).toBe('at');
    const filtered = page.waitForRequest((r) => r.url().includes('/api/v1/journals/useractions?') && new URL(r.url()).searchParams.has('from'));
    await page.getByLabel('С', { exact: true }).fill('2099-01-01T00:00');
    // the input is local time; the browser runs in Europe/Moscow (playwright.config.ts), UTC+3
    expect(new URL((await filtered).url()).searchParams.get('from')).toBe('2098-12-31T21:00:00.000Z');
    await expect(page.getByText(/результаты не найдены/)).toBeVisible();
  });

  test('every journal opens with its columns and filters', async ({ page }) => {
    await loginViaUi(page, 'admin');
    const journals: [string, string, string][] = [
      ['/journal/eventsts', 'Гаражный номер', 'Тип'],
      ['/journal/eventspo', 'Важность', 'Тип'],
      ['/journal/video', 'Камера', 'Тип'],
      ['/journal/adas', 'Степень', 'Коды инцидентов через запятую'],
    ];
    for (const [path, column, typeFilter] of journals) {
      const listed = page.waitForResponse((r) => r.url().includes(`/api/v1/journals/${path.split('/')[2]}?`));
      await page.goto(path);
      expect((await listed).status()).toBe(200);
      await expect(page.getByTestId('journal-table').or(page.getByText(/результаты не найдены|Результатов не найдено/)).first()).toBeVisible();
      await expect(page.getByLabel('ID ТС через запятую')).toBeVisible();
      await expect(page.getByRole('combobox', { name: typeFilter }).or(page.getByRole('textbox', { name: typeFilter }))).toBeVisible();
      if (await page.getByTestId('journal-table').count()) await expect(page.getByTestId('journal-table')).toContainText(column);
    }
    await page.goto('/journal/eventsts');
    await page.getByRole('combobox', { name: 'Тип' }).click();
    await expect(page.getByRole('option', { name: 'Подключение' })).toBeVisible();
    await expect(page.getByRole('option', { name: 'Ошибка прохода' })).toBeVisible();
  });
});
