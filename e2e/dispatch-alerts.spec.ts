import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import type { AlertList, AlertRouteList } from '../src/shared/dispatch/alerts';
import { ACCOUNTS } from './helpers';

/**
 * Service alerts against the running demo: a dispatcher (the demo's «Диспетчер», codes 44–47) writes an alert on a
 * route on «Оповещения», publishes it, finds it published and in the GTFS-Realtime Alerts feed (JSON), then ends it
 * and the feed no longer lists it. Signed in by the token (no login screen).
 */
test.describe.configure({ mode: 'serial' });

let token = '';
let route: { id: number; name: string };
const HEADER = `Объезд: ремонт моста (${Date.now() % 100_000})`;

async function get<T>(request: APIRequestContext, path: string): Promise<T> {
  const response = await request.get(path, { headers: { authorization: `Bearer ${token}` } });
  expect(response.status(), `${path}: ${await response.text()}`).toBe(200);
  return (await response.json()) as T;
}

async function open(page: Page, path: string): Promise<void> {
  await page.addInitScript((value) => localStorage.setItem('token', value), token);
  await page.goto(path);
}

interface JsonFeed {
  entity?: {
    id: string;
    alert: { headerText: { translation: { text: string; language: string }[] }; informedEntity: { routeId?: string }[] };
  }[];
}

test.beforeAll(async ({ request }) => {
  const login = await request.post('/api/v1/auth/login', { data: { username: 'operator', password: ACCOUNTS.operator } });
  ({ token } = (await login.json()) as { token: string });
  const routes = await get<AlertRouteList>(request, '/api/v1/dispatch/alerts/routes');
  route = routes.list[0];
  expect(route).toBeDefined();
});

test.afterAll(async ({ request }) => {
  // the demo keeps no test alert in its feed
  const current = await get<AlertList>(request, '/api/v1/dispatch/alerts');
  for (const a of current.list.filter((x) => x.header === HEADER)) {
    const action = a.state === 'draft' ? 'delete' : 'end';
    const headers = { authorization: `Bearer ${token}` };
    if (action === 'delete') await request.delete(`/api/v1/dispatch/alerts/${a.id}`, { headers });
    else await request.post(`/api/v1/dispatch/alerts/${a.id}/end`, { headers, data: {} });
  }
});

test('an alert on a route is written, published into the Alerts feed and ended', async ({ page, request }) => {
  await open(page, '/dispatch/alerts');
  await page.getByTestId('alert-create').click();
  const dialog = page.getByTestId('alert-dialog');
  await expect(dialog).toBeVisible();
  await page.getByTestId('alert-header').fill(HEADER);
  await page.getByTestId('alert-description').fill('Автобусы идут по соседней улице');
  await dialog.getByRole('combobox', { name: 'Последствие' }).click();
  await page.getByRole('option', { name: 'Объезд', exact: true }).click();
  await dialog.getByTestId('alert-routes').getByRole('combobox').fill(route.name);
  await page.getByRole('option', { name: route.name, exact: true }).first().click();
  await page.getByTestId('alert-save').click();
  await expect(dialog).toBeHidden();

  const row = page.getByTestId('alert-row').filter({ hasText: HEADER });
  await expect(row).toHaveAttribute('data-state', 'draft');
  await expect(row).toContainText(route.name);
  await expect(row).toContainText('Объезд');
  const id = await row.getAttribute('data-id');
  await row.getByTestId('alert-publish').click();
  await expect(row).toHaveAttribute('data-state', 'published');
  await expect(row.getByTestId('alert-state')).toHaveText('Опубликовано');
  await expect(row).toContainText('в ленте GTFS-RT');
  await expect(row).toContainText('operator');

  const feed = await get<JsonFeed>(request, '/api/v1/gtfs-rt/alerts?format=json');
  const entity = feed.entity?.find((e) => e.id === `alert-${id}`);
  expect(entity, JSON.stringify(feed)).toBeDefined();
  expect(entity!.alert.headerText.translation[0]).toEqual({ text: HEADER, language: 'ru' });
  expect(entity!.alert.informedEntity).toHaveLength(1);
  expect(entity!.alert.informedEntity[0].routeId).toBeTruthy();

  await row.getByTestId('alert-end').click();
  await expect(row).toBeHidden();
  const after = await get<JsonFeed>(request, '/api/v1/gtfs-rt/alerts?format=json');
  expect((after.entity ?? []).map((e) => e.id)).not.toContain(`alert-${id}`);
  await open(page, '/dispatch/alerts?state=ended');
  await expect(page.getByTestId('alert-row').filter({ hasText: HEADER })).toHaveAttribute('data-state', 'ended');
});
