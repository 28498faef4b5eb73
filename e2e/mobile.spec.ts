import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import type { CurrentUser } from '../src/shared/api';
import { canAccess } from '../src/shared/permissions';
import { switchesOf } from '../src/shared/modules';
import { ACCOUNTS, apiUser, fillLogin, scriptsOverTheWire, storedToken, submitButton, type Account } from './helpers';

/**
 * The field application under /m (field-app spec 2.1, 2.2, 2.7, 4, 6, 8) at a phone's size: the login screen
 * in place of every route, the landing page, the session shared with the console, the URL-driven main menu,
 * the error pages and the global error screen.
 */
test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

const shot = (page: Page, name: string) => page.screenshot({ path: `test-results/screens/mobile-${name}.png` });

/**
 * The sections this user's menu should list, from the permissions the server sent (map on its current-data
 * right, video on online video, ticket control on the tasks or department-control right with the bc module
 * on, handbooks on any readable handbook; each module switched on), then /about.
 */
function expectedMenu(user: CurrentUser): string[] {
  const { modules } = switchesOf(user);
  const on = (module: string) => modules[module] !== false;
  const paths: string[] = [];
  if (on('map') && canAccess(user, '/map/currentData')) paths.push('/map');
  if (on('video') && canAccess(user, '/video/online')) paths.push('/video');
  if (on('bc') && (canAccess(user, '/bc/controllertask') || canAccess(user, '/bc/departmentcontroll'))) paths.push('/bc');
  if (on('handbooks') && canAccess(user, '/handbooks')) paths.push('/handbooks');
  return [...paths, '/about'];
}

const expectedLanding = (user: CurrentUser) => expectedMenu(user)[0];

const loginScreen = (page: Page) => page.getByTestId('mobile-login');
const appBar = (page: Page) => page.getByTestId('mobile-app-bar');
const menu = (page: Page) => page.getByTestId('mobile-menu');

async function mobileLogin(page: Page, username: Account, path = '/m/'): Promise<void> {
  await page.goto(path);
  await fillLogin(page, username, ACCOUNTS[username]);
  await submitButton(page).click();
  await expect(appBar(page)).toBeVisible();
}

async function menuPaths(page: Page): Promise<string[]> {
  await expect(menu(page)).toBeVisible();
  return menu(page)
    .getByTestId('mobile-menu-entry')
    .evaluateAll((links) => links.map((link) => link.getAttribute('data-path') ?? ''));
}

async function setModules(request: APIRequestContext, modules: Record<string, boolean>): Promise<void> {
  const login = await request.post('/api/v1/auth/login', { data: { username: 'admin', password: ACCOUNTS.admin } });
  const { token } = (await login.json()) as { token: string };
  const response = await request.put('/api/v1/settings/modules', { data: { modules }, headers: { authorization: `Bearer ${token}` } });
  expect(response.status(), await response.text()).toBe(200);
}

test.describe('field app', () => {
  test('the login screen replaces any /m path while logged out, and the address stays', async ({ page }) => {
    for (const path of ['/m', '/m/', '/m/map', '/m/video/12', '/m/bc/result', '/m/nowhere', '/m/about', '/m/access-denied']) {
      await page.goto(path);
      await expect(loginScreen(page), path).toBeVisible();
      await expect(page.getByTestId('mobile-app-bar')).toHaveCount(0);
      expect(new URL(page.url()).pathname, path).toBe(path);
    }
    await expect(page.getByText('Транспортная платформа')).toBeVisible();
    await expect(page.getByText('Мобильное приложение')).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Авторизация' })).toBeVisible();
    await expect(page.locator('meta[name="viewport"]')).toHaveAttribute('content', /width=device-width/);
    await expect(page.locator('html')).toHaveAttribute('lang', 'ru');
    const card = await page.getByTestId('login-form').boundingBox();
    expect(card && card.x >= 0 && card.x + card.width <= 390).toBe(true);
    expect((await submitButton(page).boundingBox())?.height).toBeGreaterThanOrEqual(44);
    await shot(page, 'login');
  });

  test('a wrong password shows "Неверный пароль" and stores no token', async ({ page }) => {
    await page.goto('/m/');
    await fillLogin(page, 'controller', 'wrong-password1');
    await submitButton(page).click();
    await expect(page.getByTestId('login-error')).toHaveText('Неверный пароль');
    await expect(loginScreen(page)).toBeVisible();
    expect(await storedToken(page)).toBeNull();
  });

  test('the controller lands on the first permitted section, the map', async ({ page, request }) => {
    const landing = expectedLanding(await apiUser(request, 'controller'));
    await mobileLogin(page, 'controller');
    await expect(page).toHaveURL(`/m${landing}`);
    if (landing === '/map') await expect(page.getByTestId('field-map')).toBeVisible();
    await expect(appBar(page)).toHaveCSS('background-color', 'rgb(0, 58, 114)');
    expect((await appBar(page).boundingBox())?.height).toBe(48);
    expect((await page.getByTestId('mobile-menu-button').boundingBox())?.height).toBeGreaterThanOrEqual(44);
    await shot(page, 'pending');
  });

  test('after login the address the login screen replaced opens', async ({ page }) => {
    await mobileLogin(page, 'viewer', '/m/about');
    await expect(page).toHaveURL('/m/about');
    const about = page.getByTestId('mobile-about');
    await expect(about).toContainText(
      'Платформа для анализа качества транспортного обслуживания населения и повышения эффективности пассажирских перевозок',
    );
    for (const line of [
      'Карта',
      'Онлайн-видео',
      'Контроль оплаты проезда с отчётами о результатах проверок',
      'Справочники транспортных средств, маршрутов и персонала',
    ]) {
      await expect(page.getByTestId('mobile-about-subsystems')).toContainText(line);
    }
    await expect(page.getByTestId('mobile-about-version')).not.toBeEmpty();
    await shot(page, 'about');
  });

  test('the session is shared with the console: logged in there, and logged out there too', async ({ page }) => {
    await mobileLogin(page, 'viewer');
    const token = await storedToken(page);
    expect(token).toBeTruthy();

    await page.setViewportSize({ width: 1280, height: 800 }); // the console's menu is a desktop sidebar
    await page.goto('/');
    await expect(page.getByTestId('console-menu')).toBeVisible();
    expect(await storedToken(page)).toBe(token);

    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/m/?navState=open');
    await menu(page).getByTestId('mobile-logout').click();
    await expect(loginScreen(page)).toBeVisible();
    expect(await storedToken(page)).toBeNull();
    await expect(page).toHaveURL(/\/m\/?$/);

    await page.goto('/');
    await expect(submitButton(page)).toBeVisible();
    await expect(page.getByTestId('console-menu')).toHaveCount(0);
  });

  for (const username of ['controller', 'viewer', 'admin'] as const) {
    test(`?navState=open opens the menu with exactly the sections ${username} may use, the version and logout`, async ({
      page,
      request,
    }) => {
      const user = await apiUser(request, username);
      await mobileLogin(page, username);
      await page.goto('/m/?navState=open');
      await expect(page).toHaveURL(`/m${expectedLanding(user)}?navState=open`);
      expect(await menuPaths(page)).toEqual(expectedMenu(user));
      await expect(menu(page).getByTestId('mobile-menu-entry').last()).toHaveText('О системе');
      await expect(menu(page).getByTestId('mobile-menu-version')).toHaveText(`Версия ${user.build.version}`);
      await expect(menu(page).getByTestId('mobile-logout')).toHaveText('Выйти');
      if (username === 'controller') await shot(page, 'menu');
    });
  }

  test('the menu button opens the menu, back closes it, an entry leads to its page', async ({ page }) => {
    await mobileLogin(page, 'viewer');
    await expect(page).toHaveURL('/m/map');
    await page.getByTestId('mobile-menu-button').click();
    await expect(page).toHaveURL('/m/map?navState=open');
    await expect(menu(page)).toBeVisible();
    await page.goBack();
    await expect(page).toHaveURL('/m/map');
    await expect(menu(page)).toBeHidden();

    await page.getByTestId('mobile-menu-button').click();
    await menu(page).getByText('Видео').click();
    await expect(page).toHaveURL('/m/video');
    await expect(menu(page)).toBeHidden();
    await expect(appBar(page)).toContainText('Видео');
    await expect(page.getByTestId('video-search-screen')).toBeVisible();
    await page.goBack();
    await expect(page).toHaveURL('/m/map');

    await page.goto('/m/about?navState=open');
    await expect(menu(page)).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(page).toHaveURL('/m/about');
    await expect(menu(page)).toBeHidden();
  });

  test('ticket control is listed for the controller once the bc module is on', async ({ page, request }) => {
    // the demo data turns every module on: switch bc off first, then on, and leave it as it was
    const wasOn = expectedMenu(await apiUser(request, 'controller')).includes('/bc');
    await setModules(request, { bc: false });
    try {
      expect(expectedMenu(await apiUser(request, 'controller'))).not.toContain('/bc');
      await setModules(request, { bc: true });
      const user = await apiUser(request, 'controller');
      expect(expectedMenu(user)).toContain('/bc');
      await mobileLogin(page, 'controller');
      await page.goto('/m/bc?navState=open');
      expect(await menuPaths(page)).toEqual(expectedMenu(user));
      await expect(menu(page).getByText('Контроль оплаты')).toBeVisible();
      await page.keyboard.press('Escape');
      await expect(page).toHaveURL('/m/bc');
      await expect(page.getByTestId('bc-home')).toBeVisible();
      await page.goto('/m/bc/result');
      await expect(appBar(page)).toContainText('Отчёт контролёра');
      await expect(page.getByTestId('controller-report')).toBeVisible();
    } finally {
      await setModules(request, { bc: wasOn });
    }
  });

  test('an unknown path goes to /not-found; a section whose module is off too', async ({ page }) => {
    await mobileLogin(page, 'controller');
    await page.goto('/m/no/such/page');
    await expect(page).toHaveURL('/m/not-found');
    await expect(page.getByTestId('not-found')).toContainText('Страница не найдена');
    await page.goto('/m/map/extra');
    await expect(page).toHaveURL('/m/not-found');
  });

  test('a path without permission goes to /access-denied, whose button opens the menu on the main page', async ({ page, request }) => {
    const user = await apiUser(request, 'controller');
    test.skip(canAccess(user, '/video/online'), 'the controller may watch video');
    await mobileLogin(page, 'controller');
    await page.goto('/m/video/12');
    await expect(page).toHaveURL('/m/access-denied');
    await expect(page.getByRole('heading', { name: 'Нет доступа' })).toBeVisible();
    await shot(page, 'access-denied');
    await page.getByTestId('access-denied-main').click();
    await expect(page).toHaveURL(`/m${expectedLanding(user)}?navState=open`);
    await expect(menu(page)).toBeVisible();
    expect(await menuPaths(page)).toEqual(expectedMenu(user));
  });

  test('no answer to the current user leads to /no-connection; refresh goes to / once the server answers', async ({ page, request }) => {
    const landing = expectedLanding(await apiUser(request, 'viewer'));
    await mobileLogin(page, 'viewer');
    let calls = 0;
    await page.route('**/api/v1/auth/current**', async (route) => {
      calls += 1;
      if (calls === 1) await route.abort('internetdisconnected');
      else await route.continue();
    });
    await page.goto('/m/handbooks');
    await expect(page).toHaveURL('/m/no-connection');
    await expect(page.getByRole('heading', { name: 'Нет соединения' })).toBeVisible();
    await expect(page.getByTestId('no-connection')).toContainText('Проверьте подключение к интернету и обновите страницу');
    await shot(page, 'no-connection');

    const [current] = await Promise.all([
      page.waitForResponse((response) => response.url().includes('/api/v1/auth/current') && response.ok()),
      page.getByTestId('no-connection-refresh').click(),
    ]);
    expect(current.request().method()).toBe('GET');
    await expect(page).toHaveURL(`/m${landing}`);
  });

  test('leaving a page cancels its pending requests', async ({ page }) => {
    await mobileLogin(page, 'viewer');
    await page.goto('/m/no-connection');
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/v1/auth/current**', async (route) => {
      await held;
      await route.continue().catch(() => undefined);
    });
    const failed = page.waitForEvent('requestfailed', (request) => request.url().includes('/api/v1/auth/current'));
    await page.getByTestId('no-connection-refresh').click();
    await page.getByTestId('mobile-menu-button').click();
    await menu(page).getByText('О системе').click();
    await expect(page).toHaveURL('/m/about');
    expect((await failed).failure()?.errorText).toContain('ABORTED');
    release();
    await expect(page.getByTestId('mobile-about')).toBeVisible();
    await page.waitForTimeout(300);
    await expect(page).toHaveURL('/m/about'); // the cancelled refresh did not lead anywhere
  });

  test('a rendering error shows the global error screen; a route change or "Вернуться" clears it', async ({ page }) => {
    await mobileLogin(page, 'viewer');
    const landing = new URL(page.url()).pathname.replace(/^\/m/, '');
    // a current user without its build: the about page cannot render
    await page.route('**/api/v1/auth/current**', async (route) => {
      const response = await route.fetch();
      const body = (await response.json()) as Record<string, unknown>;
      delete body.build;
      await route.fulfill({ response, json: body });
    });
    await page.goto('/m/about');
    const screen = page.getByTestId('global-error');
    await expect(screen).toBeVisible();
    await expect(page.getByTestId('global-error-message')).toHaveText(/^Ошибка: .*version/);
    await expect(page.getByTestId('global-error-name')).toContainText('TypeError');
    await expect(page.getByTestId('global-error-stack')).toContainText('TypeError');
    await shot(page, 'error');

    await page.getByTestId('mobile-menu-button').click();
    await expect(screen).toBeVisible(); // the query changed, not the route
    await menu(page).getByText('Карта').click();
    await expect(page).toHaveURL(`/m${landing}`);
    await expect(screen).toBeHidden();

    await page.getByTestId('mobile-menu-button').click();
    await menu(page).getByText('О системе').click();
    await expect(screen).toBeVisible();
    await page.getByRole('button', { name: 'Вернуться' }).click();
    await expect(page).toHaveURL(`/m${landing}`);
    await expect(screen).toBeHidden();
    await expect(appBar(page)).toBeVisible();
  });

  test('the client-error flag (an error outside rendering) leads to /client-error; the menu leads on from there', async ({ page }) => {
    await mobileLogin(page, 'operator');
    const landing = new URL(page.url()).pathname;
    // an exception in a timer: no error boundary sees it, the window's error event sets the flag
    await page.evaluate(() => {
      setTimeout(() => {
        throw new Error('сбой обработчика');
      }, 0);
    });
    await expect(page).toHaveURL('/m/client-error');
    await expect(page.getByTestId('client-error')).toContainText('Ошибка приложения');
    await page.goto(landing);
    await expect(page).toHaveURL(landing);
    await page.waitForTimeout(300);
    await expect(page).toHaveURL(landing); // the flag was cleared by the redirect

    // a rejected promise nobody waits for
    await page.evaluate(() => {
      void Promise.reject(new Error('обещание без обработчика'));
    });
    await expect(page).toHaveURL('/m/client-error');
    await page.getByTestId('mobile-menu-button').click();
    await menu(page).getByText('О системе').click();
    await expect(page).toHaveURL('/m/about');
    await expect(page.getByTestId('mobile-about')).toBeVisible();
  });

  test('the login page loads little JavaScript, and none of react-admin', async ({ page }, testInfo) => {
    const scripts = await scriptsOverTheWire(page);
    await page.goto('/m/');
    await expect(submitButton(page)).toBeVisible();
    await page.waitForLoadState('networkidle');
    const total = scripts.reduce((sum, script) => sum + script.bytes, 0);
    const report = scripts.map((s) => `${s.url} ${(s.bytes / 1024).toFixed(1)} KB`).join('\n');
    await testInfo.attach('mobile-login-page-js.txt', { body: `${report}\ntotal over the wire ${(total / 1024).toFixed(1)} KB\n` });
    console.log(`/m/ login page JavaScript (over the wire): ${(total / 1024).toFixed(1)} KB in ${scripts.length} files\n${report}`);
    expect(scripts.some((script) => /MobileApp|ConsoleApp/.test(script.url))).toBe(false);
    expect(total).toBeLessThan(200 * 1024); // field-app spec: the first screen, at most 200 KB
  });
});
