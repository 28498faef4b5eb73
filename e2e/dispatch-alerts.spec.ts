import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import type { AlertList, AlertRouteList } from '../src/shared/dispatch/alerts';
import type { DispatchOptions, DispatchVehicleList } from '../src/shared/dispatch/api';
import type { ChangesList, ServiceChange } from '../src/shared/dispatch/control';
import { ACCOUNTS } from './helpers';

/**
 * Service alerts against the running demo: a dispatcher (the demo's «Диспетчер», codes 44–47) writes an alert on a
 * route on «Оповещения», publishes it, finds it published, in the GTFS-Realtime Alerts feed (JSON) and on the
 * board «Оперативная обстановка», then ends it and the feed no longer lists it. The bell: a run added with a
 * vehicle that never starts it is an exit not started, which rings. Signed in by the token (no login screen).
 */
test.describe.configure({ mode: 'serial' });

let token = '';
let route: { id: number; name: string };
const HEADER = `Объезд: ремонт моста (${Date.now() % 100_000})`;
const ADD_REASON = 'e2e: выход, который не начнётся';

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
  // nor the added run
  const changes = await get<ChangesList>(request, '/api/v1/dispatch/changes');
  for (const c of changes.list.filter((x) => x.reason === ADD_REASON && !x.revokedAt))
    await request.post(`/api/v1/dispatch/changes/${c.id}/revoke`, { headers: { authorization: `Bearer ${token}` }, data: {} });
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

  // the board shows it above the exceptions, with its period, its route and a way to the alerts
  await open(page, '/dispatch/board');
  const strip = page.getByTestId('board-alerts');
  const line = strip.locator(`[data-testid="board-alert"][data-alert-id="${id}"]`);
  await expect(line).toContainText(HEADER);
  await expect(line).toContainText('Объезд');
  await expect(line).toContainText(route.name);
  await expect(line).toContainText('до завершения');
  await page.screenshot({ path: 'test-results/screens/board-alerts.png' });
  await strip.getByTestId('board-alerts-link').click();
  await expect(page).toHaveURL(/\/dispatch\/alerts$/);

  await row.getByTestId('alert-end').click();
  await expect(row).toBeHidden();
  const after = await get<JsonFeed>(request, '/api/v1/gtfs-rt/alerts?format=json');
  expect((after.entity ?? []).map((e) => e.id)).not.toContain(`alert-${id}`);
  await open(page, '/dispatch/alerts?state=ended');
  await expect(page.getByTestId('alert-row').filter({ hasText: HEADER })).toHaveAttribute('data-state', 'ended');
});

test('the bell lists a dispatch notification: an exit added with a vehicle that never starts it', async ({ page, request }) => {
  test.setTimeout(120_000);
  const headers = { authorization: `Bearer ${token}` };
  const options = await get<DispatchOptions>(request, '/api/v1/dispatch/options');
  const vehicles = await get<DispatchVehicleList>(request, '/api/v1/dispatch/vehicles');
  // a vehicle working another route: it never leaves the added run's first stop
  const vehicle = vehicles.list.find((v) => v.run && v.run.routeId !== options.routes[0].id) ?? vehicles.list[0];
  expect(vehicle).toBeDefined();
  // started ten minutes ago: past the five minutes after which an exit not started is reported
  const start = new Date(Date.now() - 10 * 60_000).toLocaleTimeString('ru-RU', {
    timeZone: 'Europe/Moscow',
    hour: '2-digit',
    minute: '2-digit',
  });
  const added = await request.post('/api/v1/dispatch/changes/added-runs', {
    headers,
    data: { routeId: options.routes[0].id, direction: 0, start, vehicleId: vehicle.vehicleId, reason: ADD_REASON },
  });
  expect(added.status(), await added.text()).toBe(200);
  expect(((await added.json()) as ServiceChange).kind).toBe('add');
  // the simulator's own vehicles raise other dispatch exceptions meanwhile: wait for this one by its title
  const ADDED_EXIT = /Выход не начат|Много исключений диспетчерской/;
  await expect
    .poll(
      async () =>
        (await get<{ list: { title: string }[] }>(request, '/api/v1/events/ring/list?type=dispatch_exception')).list.some((n) =>
          ADDED_EXIT.test(n.title),
        ),
      { timeout: 60_000, intervals: [2_000] },
    )
    .toBe(true);

  await open(page, '/about');
  const bell = page.getByTestId('notification-bell');
  await expect(bell).toHaveAttribute('data-count', /^[1-9]\d*$/);
  await bell.click();
  await page.getByTestId('notification-popover').getByLabel('Тип').click();
  await page.getByRole('option', { name: 'Диспетчерская', exact: true }).click();
  const items = page.getByTestId('notification-item');
  await expect(items.first()).toBeVisible();
  await expect(items.first()).toContainText('Диспетчерская');
  const item = items.filter({ hasText: ADDED_EXIT }).first();
  await expect(item).toBeVisible();
  await page.screenshot({ path: 'test-results/screens/bell-dispatch.png' });
  await item.click();
  await expect(page).toHaveURL(/\/dispatch\/board/);
});
