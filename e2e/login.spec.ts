import { expect, test, type Locator, type Page } from '@playwright/test';
import { apiUser, expectedLanding, fillLogin, passwordField, storedToken, submitButton, usernameField } from './helpers';

/** The helper text under a field (the element its aria-describedby names). */
async function helperOf(page: Page, field: Locator): Promise<string> {
  const id = await field.getAttribute('aria-describedby');
  return id ? ((await page.locator(`[id="${id}"]`).textContent()) ?? '').trim() : '';
}

test.describe('login screen', () => {
  test.beforeEach(async ({ page }) => {
    await page.goto('/');
  });

  test('shows the title, the heading, the two fields and the button', async ({ page }) => {
    await expect(page.getByText('Транспортная платформа')).toBeVisible();
    await expect(page.getByText('Консоль диспетчера')).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Авторизация' })).toBeVisible();
    await expect(usernameField(page)).toBeVisible();
    await expect(passwordField(page)).toHaveAttribute('type', 'password');
    await expect(submitButton(page)).toHaveText('Войти');
  });

  test('an empty field shows "Это обязательное поле" under it and nothing is sent', async ({ page }) => {
    const sent: string[] = [];
    page.on('request', (request) => request.url().includes('/api/v1/auth/login') && sent.push(request.url()));

    await submitButton(page).click();
    await expect.poll(() => helperOf(page, usernameField(page))).toBe('Это обязательное поле');
    await expect.poll(() => helperOf(page, passwordField(page))).toBe('Это обязательное поле');

    await usernameField(page).fill('admin');
    await submitButton(page).click();
    await expect(page.getByText('Это обязательное поле')).toHaveCount(1);
    await expect.poll(() => helperOf(page, passwordField(page))).toBe('Это обязательное поле');
    await expect(usernameField(page)).toHaveAttribute('aria-invalid', 'false');

    await usernameField(page).fill('');
    await passwordField(page).fill('admin123');
    await submitButton(page).click();
    await expect(page.getByText('Это обязательное поле')).toHaveCount(1);
    await expect.poll(() => helperOf(page, usernameField(page))).toBe('Это обязательное поле');

    expect(sent).toEqual([]);
  });

  const refusals = [
    { name: 'an unknown login', username: 'nobody-here', password: 'whatever1', message: 'Логин не найден' },
    { name: 'a wrong password', username: 'operator', password: 'wrong-password1', message: 'Неверный пароль' },
    { name: 'a blocked user', username: 'blocked', password: 'blocked123', message: 'Пользователь заблокирован' },
  ];
  for (const { name, username, password, message } of refusals) {
    test(`${name} shows "${message}" and stays on the login screen`, async ({ page }) => {
      await fillLogin(page, username, password);
      await submitButton(page).click();
      await expect(page.getByTestId('login-error')).toHaveText(message);
      await expect(page).toHaveURL('/');
      expect(await storedToken(page)).toBeNull();
      await expect(usernameField(page)).toBeEnabled();
    });
  }

  test('no answer from the server shows "Сервер недоступен"', async ({ page }) => {
    await page.route('**/api/v1/auth/login', (route) => route.abort('connectionrefused'));
    await fillLogin(page, 'admin', 'admin123');
    await submitButton(page).click();
    await expect(page.getByTestId('login-error')).toHaveText('Сервер недоступен');
    await expect(page).toHaveURL('/');
  });

  test('the fields are disabled and a spinner shows while the login is processed', async ({ page }) => {
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/v1/auth/login', async (route) => {
      await held;
      await route.continue();
    });
    await fillLogin(page, 'operator', 'operator123');
    await submitButton(page).click();
    await expect(usernameField(page)).toBeDisabled();
    await expect(passwordField(page)).toBeDisabled();
    await expect(page.getByTestId('login-spinner')).toBeVisible();
    release();
    await expect(page.getByTestId('console-menu')).toBeVisible();
  });

  for (const username of ['admin', 'operator', 'viewer'] as const) {
    test(`${username} lands on the page the shared landing rule gives`, async ({ page, request }) => {
      const expected = expectedLanding(await apiUser(request, username));
      await fillLogin(page, username, `${username}123`);
      await submitButton(page).click();
      await expect(page).toHaveURL(expected);
      await expect(page.getByTestId('console-menu')).toBeVisible();
      expect(await storedToken(page)).toBeTruthy();
    });
  }
});
