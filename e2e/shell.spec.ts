import { expect, test } from '@playwright/test';
import { CONSOLE_ROUTES } from '../src/shared/routes';
import { MODULES, switchesOf } from '../src/shared/modules';
import { routeVerdict } from '../src/shared/routeAccess';
import { SCREENS } from '../src/client/screens';
import { apiUser, expectedLanding, expectedMenuPaths, loginViaUi, menuPaths, storedToken, submitButton } from './helpers';

test.describe('console shell', () => {
  test('the menu follows the permissions of admin and viewer', async ({ page, request }) => {
    for (const username of ['admin', 'viewer'] as const) {
      const expected = expectedMenuPaths(await apiUser(request, username));
      await loginViaUi(page, username);
      expect(await menuPaths(page), `menu of ${username}`).toEqual(expected);
      await expect(page.getByTestId('console-menu').getByTestId('menu-entry').last()).toHaveText('О системе');
      await page.evaluate(() => localStorage.removeItem('token'));
      await page.goto('/');
    }
  });

  test('requests carry the token, the timezone offset (minutes east of UTC) and the page id', async ({ page }) => {
    await loginViaUi(page, 'viewer');
    const token = await storedToken(page);
    const [request] = await Promise.all([
      page.waitForRequest('**/api/v1/about'),
      page.getByTestId('console-menu').getByText('О системе').click(),
    ]);
    const headers = request.headers();
    expect(headers.authorization).toBe(`Bearer ${token}`);
    expect(headers['x-timezone-offset']).toBe('180'); // Europe/Moscow, UTC+3 (playwright.config.ts)
    expect(headers['x-page-id']).toBe('/about');
  });

  test('the app bar is 48 high, the sidebar 255 wide, in the primary colour', async ({ page }) => {
    await loginViaUi(page, 'admin');
    const bar = page.locator('header.MuiAppBar-root').first();
    expect((await bar.boundingBox())?.height).toBe(48);
    await expect(bar).toHaveCSS('background-color', 'rgb(0, 58, 114)');
    const sidebar = page.locator('.RaSidebar-fixed, .RaSidebar-paper').first();
    expect((await sidebar.boundingBox())?.width).toBe(255);
  });

  test('a stored session is restored on reload; /about is reachable from the menu', async ({ page }) => {
    await loginViaUi(page, 'viewer');
    await page.reload();
    await expect(page.getByTestId('console-menu')).toBeVisible();
    await page.getByTestId('console-menu').getByText('О системе').click();
    await expect(page).toHaveURL('/about');
    await expect(page.getByTestId('about-page')).toBeVisible();
  });

  test('/about lists the modules with their state, the module filter and the manuals', async ({ page, request }) => {
    // the e2e server runs with the demo data, which turns every module on (a production install keeps bc off)
    const bcOn = switchesOf(await apiUser(request, 'operator')).modules.bc !== false;
    await loginViaUi(page, 'operator');
    await page.goto('/about');
    const modules = page.getByTestId('about-modules');
    await expect(modules.getByRole('listitem')).toHaveCount(MODULES.length);
    await expect(modules.getByRole('listitem').filter({ hasText: 'Диспетчерская' })).toContainText('Включён');
    await expect(modules.getByRole('listitem').filter({ hasText: 'Контроль оплаты' })).toContainText(bcOn ? 'Включён' : 'Выключен');
    await expect(modules.getByRole('listitem').filter({ hasText: 'Видео' })).toContainText('Включён');
    for (const label of ['Все', 'УМП', 'Видео', 'Пассажиропоток', 'Контроль оплаты', 'Мониторинг']) {
      await expect(page.getByRole('button', { name: label, exact: true })).toBeVisible();
    }
    await page.getByRole('button', { name: 'Видео', exact: true }).click();
    await expect(modules.getByRole('listitem')).toHaveCount(1);
    const manuals = page.getByTestId('about-manuals');
    await expect(manuals).toContainText('Руководство администратора');
    await expect(manuals).toContainText('версия 1.26');
    await expect(manuals.getByRole('listitem').filter({ hasText: 'Руководство контролёра' })).toHaveAttribute('aria-disabled', 'true');
    await expect(manuals).toContainText('версия 1.8.4');
  });

  test('/about is open to a visitor without a session', async ({ page }) => {
    await page.goto('/about');
    await expect(page.getByTestId('about-page')).toBeVisible();
    await expect(page.getByTestId('about-version')).not.toBeEmpty();
  });

  test('an unknown address goes to /not-found; a visitor without a session goes to the login screen', async ({ page }) => {
    await page.goto('/no/such/page');
    await expect(page).toHaveURL('/');
    await expect(submitButton(page)).toBeVisible();
    await loginViaUi(page, 'operator');
    await page.goto('/no/such/page');
    await expect(page).toHaveURL('/not-found');
    await expect(page.getByTestId('not-found')).toBeVisible();
  });

  test('a route the user may not open leads to /access-denied (route guard)', async ({ page, request }) => {
    const viewer = await apiUser(request, 'viewer');
    const switches = switchesOf(viewer);
    const refused = CONSOLE_ROUTES.find(
      (route) => SCREENS[route.path] !== undefined && routeVerdict(viewer, switches, route.path) === 'access-denied',
    );
    test.skip(!refused, 'no built and registered route is refused to viewer yet (no route in CONSOLE_ROUTES is built)');
    await loginViaUi(page, 'viewer');
    await page.goto(refused!.path);
    await expect(page).toHaveURL('/access-denied');
    await expect(page.getByTestId('access-denied')).toContainText('Отказано в доступе');
  });

  test('an API answer 403 shows "Отказано в доступе" and leads to /access-denied', async ({ page, request }) => {
    const landing = expectedLanding(await apiUser(request, 'viewer'));
    // No API route refuses with 403 yet (none checks a permission), so the server's answer to a real call
    // of the about page is replaced by a 403 in the browser: this exercises the http client's handling.
    await loginViaUi(page, 'viewer');
    await page.route('**/api/v1/about', (route) =>
      route.fulfill({ status: 403, contentType: 'application/json', body: JSON.stringify({ messages: ['forbidden'] }) }),
    );
    await page.getByTestId('console-menu').getByText('О системе').click();
    await expect(page).toHaveURL('/access-denied');
    await expect(page.getByTestId('message').filter({ hasText: 'Отказано в доступе' })).toBeVisible();
    await expect(page.getByTestId('access-denied')).toContainText('Отказано в доступе');
    await expect(page.getByTestId('access-denied')).toContainText('Нет доступа');
    await page.getByRole('link', { name: 'На главную' }).click();
    await expect(page).toHaveURL(landing);
  });

  test('no answer from the server shows "Ошибка" and leads to /server-error', async ({ page }) => {
    await loginViaUi(page, 'viewer');
    await page.route('**/api/v1/about', (route) => route.abort('connectionrefused'));
    await page.getByTestId('console-menu').getByText('О системе').click();
    await expect(page).toHaveURL('/server-error');
    await expect(page.getByTestId('message').filter({ hasText: /^Ошибка$/ })).toBeVisible();
  });

  test('a stale token is dropped at start (401) and the login screen shows', async ({ page }) => {
    await page.goto('/');
    await page.evaluate(() => localStorage.setItem('token', 'no-such-session'));
    await page.goto('/about');
    await expect(page).toHaveURL('/');
    await expect(submitButton(page)).toBeVisible();
    expect(await storedToken(page)).toBeNull();
  });

  test('logout returns to the login screen and forgets the token', async ({ page }) => {
    await loginViaUi(page, 'admin');
    expect(await storedToken(page)).toBeTruthy();
    await page.locator('header').getByText('Анна Администраторова').click();
    await page.getByRole('menuitem', { name: 'Выйти' }).click();
    await expect(page).toHaveURL('/');
    await expect(submitButton(page)).toBeVisible();
    expect(await storedToken(page)).toBeNull();
    await page.reload();
    await expect(submitButton(page)).toBeVisible();
    await expect(page.getByTestId('console-menu')).toHaveCount(0);
  });

  test('English is switchable from the user menu and remembered', async ({ page }) => {
    await loginViaUi(page, 'viewer');
    await page.locator('header').getByText('Виктор Наблюдателев').click();
    await page.getByTestId('locale-en').click();
    await expect(page.getByTestId('console-menu')).toContainText('About');
    await page.reload();
    await expect(page.getByTestId('console-menu')).toContainText('About');
    await page.locator('header').getByText('Виктор Наблюдателев').click();
    await page.getByTestId('locale-ru').click();
    await expect(page.getByTestId('console-menu')).toContainText('О системе');
  });
});
