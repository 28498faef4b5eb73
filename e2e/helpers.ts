import { expect, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import type { CurrentUser, LoginResponse } from '../src/shared/api';
import { HANDBOOKS_PREFIX, firstReadableHandbook, landingPath, visibleRoutes } from '../src/shared/permissions';
import { switchesOf } from '../src/shared/modules';

export const ACCOUNTS = {
  admin: 'admin123',
  operator: 'operator123',
  controller: 'controller123',
  viewer: 'viewer123',
  blocked: 'blocked123',
} as const;
export type Account = keyof typeof ACCOUNTS;

/** The user the server returns for an account (a session of its own, through the API). */
export async function apiUser(request: APIRequestContext, username: Account): Promise<CurrentUser> {
  const response = await request.post('/api/v1/auth/login', { data: { username, password: ACCOUNTS[username] } });
  expect(response.status()).toBe(200);
  return ((await response.json()) as LoginResponse).user;
}

/** Where the console should land this user, by the shared rule of spec section 2. */
export function expectedLanding(user: CurrentUser): string {
  return landingPath(user, switchesOf(user));
}

/** The menu links this user should see: visible, unhidden routes (handbooks when one is readable), then /about. */
export function expectedMenuPaths(user: CurrentUser): string[] {
  const switches = switchesOf(user);
  const paths = visibleRoutes(user, switches)
    .filter((route) => !route.hidden)
    .filter((route) => route.path !== HANDBOOKS_PREFIX || firstReadableHandbook(user, switches) !== undefined)
    .map((route) => route.path);
  return [...paths, '/about'];
}

export const usernameField = (page: Page) => page.getByLabel('Логин');
export const passwordField = (page: Page) => page.getByLabel('Пароль');
export const submitButton = (page: Page) => page.getByTestId('login-submit');

export async function fillLogin(page: Page, username: string, password: string): Promise<void> {
  await usernameField(page).fill(username);
  await passwordField(page).fill(password);
}

/** Logs in through the login screen and waits for the console's layout. */
export async function loginViaUi(page: Page, username: Account): Promise<void> {
  await page.goto('/');
  await fillLogin(page, username, ACCOUNTS[username]);
  await submitButton(page).click();
  await expect(page.getByTestId('console-menu')).toBeVisible();
}

/**
 * Signs in through the API and leaves the token where the console keeps it (the login screen has specs of its
 * own): the next page the test opens is the console of this account, with one page load instead of three.
 */
export async function signIn(page: Page, username: Account): Promise<void> {
  const response = await page.request.post('/api/v1/auth/login', { data: { username, password: ACCOUNTS[username] } });
  expect(response.status()).toBe(200);
  const { token } = (await response.json()) as LoginResponse;
  // any small file of the console's origin gives the page its localStorage
  await page.goto('/favicon.svg');
  await page.evaluate((value) => localStorage.setItem('token', value), token);
}

export async function storedToken(page: Page): Promise<string | null> {
  return page.evaluate(() => localStorage.getItem('token'));
}

/** Opens every folded menu group, then reads the paths of the menu links in order. */
export async function menuPaths(page: Page): Promise<string[]> {
  const menu = page.getByTestId('console-menu');
  await expect(menu.getByTestId('menu-entry').last()).toBeVisible();
  // each click unfolds a group and takes it out of the folded set: always click the first folded one left
  const folded = menu.locator('[data-testid^="menu-group-"][aria-expanded="false"]');
  while ((await folded.count()) > 0) await folded.first().click();
  return menu.getByTestId('menu-entry').evaluateAll((links) => links.map((link) => link.getAttribute('data-path') ?? ''));
}

/**
 * The scripts a page loads, each with the bytes it took over the wire (headers and the body as sent:
 * compressed when the server answered with a compressed copy), counted once the responses finish. Call it
 * before the page is opened.
 */
export async function scriptsOverTheWire(page: Page): Promise<{ url: string; bytes: number }[]> {
  // Chromium asks for brotli only from secure origins (https, localhost and 127.0.0.1 here); a phone on the
  // product's plain-http address asks for gzip, so the budgets count what it gets.
  await page.setExtraHTTPHeaders({ 'accept-encoding': 'gzip, deflate' });
  const scripts: { url: string; bytes: number }[] = [];
  page.on('requestfinished', async (request) => {
    if (request.resourceType() !== 'script' && !request.url().endsWith('.js')) return;
    const sizes = await request.sizes().catch(() => null);
    if (sizes) scripts.push({ url: new URL(request.url()).pathname, bytes: sizes.responseBodySize + sizes.responseHeadersSize });
  });
  return scripts;
}

export interface Box {
  text: string;
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The boxes of the matched elements that have one, each with its text. */
export async function boxesOf(locator: Locator): Promise<Box[]> {
  return locator.evaluateAll((elements) =>
    elements
      .map((element) => ({ text: (element.textContent ?? '').trim(), rect: element.getBoundingClientRect() }))
      .filter(({ rect }) => rect.width > 0 && rect.height > 0)
      .map(({ text, rect }) => ({ text, x: rect.x, y: rect.y, width: rect.width, height: rect.height })),
  );
}

/** The pairs of boxes that overlap by more than a pixel each way (text that would be drawn over text). */
export function overlapping(boxes: readonly Box[], others: readonly Box[] = boxes): string[] {
  const pairs: string[] = [];
  for (const [i, a] of boxes.entries()) {
    for (const [j, b] of others.entries()) {
      if (others === boxes && j <= i) continue;
      const across = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
      const down = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
      if (across > 1 && down > 1) pairs.push(`«${a.text}» over «${b.text}»`);
    }
  }
  return pairs;
}
