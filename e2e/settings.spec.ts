import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { READ } from '../src/shared/permissions';
import { ACCOUNTS, fillLogin, loginViaUi, menuPaths, signIn, submitButton } from './helpers';

/** System settings (/system/*) and the module switches (on /roles), against the real server. */
const unique = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;

async function asAdmin(request: APIRequestContext, method: 'post' | 'put', url: string, data: unknown): Promise<unknown> {
  const login = await request.post('/api/v1/auth/login', { data: { username: 'admin', password: ACCOUNTS.admin } });
  const { token } = (await login.json()) as { token: string };
  const response = await request[method](url, { data, headers: { authorization: `Bearer ${token}` } });
  expect(response.status(), await response.text()).toBe(200);
  return response.json();
}

const field = (page: Page, label: string) => page.getByRole('textbox', { name: label }).or(page.getByRole('spinbutton', { name: label }));

test.describe('system settings', () => {
  test.describe.configure({ timeout: 60_000 });

  test('a change is saved and shown after reload; the client refuses what the server would', async ({ page }) => {
    await signIn(page, 'admin');
    await page.goto('/system/video');
    const days = field(page, 'Срок хранения видеоархива, дней');
    await expect(days).toHaveValue(/^\d+$/);
    const next = (await days.inputValue()) === '45' ? '46' : '45';
    await days.fill('400');
    await page.getByRole('button', { name: 'Сохранить' }).click();
    await expect(page.getByText('Значение может быть 365 или меньше')).toBeVisible();
    await days.fill(next);
    const saved = page.waitForResponse(
      (response) => response.url().endsWith('/api/v1/settings/video') && response.request().method() === 'PUT',
    );
    await page.getByRole('button', { name: 'Сохранить' }).click();
    expect((await saved).status()).toBe(200);
    await expect(page.getByText('Настройки сохранены')).toBeVisible();
    await page.reload();
    await expect(field(page, 'Срок хранения видеоархива, дней')).toHaveValue(next);
  });

  test('a field refused by the server shows its rule under the field (server answer stubbed)', async ({ page }) => {
    await loginViaUi(page, 'admin');
    await page.route('**/api/v1/settings/navigation', (route) =>
      route.request().method() === 'PUT'
        ? route.fulfill({
            status: 400,
            contentType: 'application/json',
            body: JSON.stringify({ messages: ['bad_request', 'requestRadius must be <= 100000'] }),
          })
        : route.continue(),
    );
    await page.goto('/system/navigation');
    await field(page, 'Радиус поиска ТС вокруг точки запроса, м').fill('700');
    await page.getByRole('button', { name: 'Сохранить' }).click();
    await expect(page.getByTestId('settings-navigation').getByText('Не больше 100000')).toBeVisible();
    await expect(page.getByTestId('message').filter({ hasText: 'Неверный запрос' })).toBeVisible();
  });

  test('EIS: the import cannot be switched on without an http(s) address', async ({ page }) => {
    await signIn(page, 'admin');
    await page.goto('/system/eis');
    await page.getByLabel('Импорт из ЕИС включён').check();
    await field(page, 'Адрес выгрузки ЕИС').fill('');
    await page.getByRole('button', { name: 'Сохранить' }).click();
    await expect(page.getByText('Укажите адрес, чтобы включить импорт')).toBeVisible();
    await field(page, 'Адрес выгрузки ЕИС').fill('ftp://example.test/export');
    await expect(page.getByText('Адрес должен начинаться с http:// или https://')).toBeVisible();
    await field(page, 'Время ежедневного импорта').fill('03:00, 25:00');
    await expect(page.getByText('Время в формате ЧЧ:ММ')).toBeVisible();
  });

  test('switching a module off takes it out of the menu; on again, it is back', async ({ page }) => {
    await signIn(page, 'admin');
    await page.goto('/roles');
    const card = page.getByTestId('settings-modules');
    const journals = card.getByLabel('Журналы', { exact: true });
    await expect(journals).toBeChecked();
    await expect(card.getByLabel('Администрирование', { exact: true })).toHaveAttribute('readonly', '');
    await journals.uncheck();
    await card.getByRole('button', { name: 'Сохранить' }).click();
    await expect(page.getByText('Настройки сохранены')).toBeVisible();
    await expect(page.getByTestId('menu-group-journals')).toHaveCount(0);
    await card.getByLabel('Журналы', { exact: true }).check();
    await card.getByRole('button', { name: 'Сохранить' }).click();
    await expect(page.getByTestId('menu-group-journals')).toBeVisible();
  });

  test('without the update right the page is read-only', async ({ page, request }) => {
    const id = unique();
    const role = (await asAdmin(request, 'post', '/api/v1/roles', {
      name: `Навигация ${id}`,
      permissions: { '/system/navigation': READ },
    })) as { id: number };
    await asAdmin(request, 'post', '/api/v1/users/', {
      username: `nav${id}`,
      email: `nav${id}@example.test`,
      password: 'navig123',
      roles: [role.id],
    });
    await page.goto('/');
    await fillLogin(page, `nav${id}`, 'navig123');
    await submitButton(page).click();
    await expect(page).toHaveURL('/system/navigation');
    expect(await menuPaths(page)).toEqual(['/system/navigation', '/about']);
    await expect(page.getByTestId('settings-read-only')).toContainText('Только просмотр');
    await expect(page.getByRole('button', { name: 'Сохранить' })).toHaveCount(0);
    await expect(field(page, 'Допустимое отклонение ТС от линии маршрута, м')).toHaveAttribute('readonly', '');
    await page.goto('/system/video');
    await expect(page).toHaveURL('/access-denied');
  });
});
