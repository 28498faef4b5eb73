import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { EXCEPTION_KINDS, type BoardList, type DispatchVehicleList, type VehicleCard } from '../src/shared/dispatch/api';
import type { ServiceChange } from '../src/shared/dispatch/control';
import { ACCOUNTS } from './helpers';

/**
 * The dispatcher's screens against the running demo: the simulator drives the fleet, the live timetable matches
 * it. A vehicle is made late for certain, whatever the hour's traffic (the demo fleet runs early at night): the
 * start of the run it is working is moved 15 minutes earlier («Изменения движения», revoked after) and the late
 * threshold of the navigation settings lowered to one second (restored after); the vehicle the engine reports late
 * is followed on the board, the line diagram and the map's adherence colours; a stop ahead of it shows its
 * arrivals. Signed in by the token (no login screen).
 */
test.describe.configure({ mode: 'serial' });

let token = '';
let late: { vehicleId: number; routeId: number; key: string };
let nextStop: number;

let moved: ServiceChange | null = null;

async function call<T>(request: APIRequestContext, method: 'get' | 'put' | 'post', path: string, data?: unknown): Promise<T> {
  const response = await request[method](path, { headers: { authorization: `Bearer ${token}` }, data });
  expect(response.status(), `${path}: ${await response.text()}`).toBe(200);
  return (await response.json()) as T;
}

async function open(page: Page, path: string): Promise<void> {
  await page.addInitScript((value) => localStorage.setItem('token', value), token);
  await page.goto(path);
}

test.beforeAll(async ({ request }) => {
  test.setTimeout(200_000);
  const login = await request.post('/api/v1/auth/login', { data: { username: 'admin', password: ACCOUNTS.admin } });
  ({ token } = (await login.json()) as { token: string });
  await call(request, 'put', '/api/v1/settings/navigation', { dispatch: { lateSeconds: 1 } });
  // a vehicle in service with a quarter of an hour of its run still to go: its run moved earlier makes it late
  await expect
    .poll(
      async () => {
        const { list } = await call<DispatchVehicleList>(request, 'get', '/api/v1/dispatch/vehicles');
        const working = list.find((v) => v.run && Date.parse(v.run.scheduledEnd) > Date.now() + 15 * 60_000 && v.deviation !== null);
        if (!working?.run) return false;
        moved = await call<ServiceChange>(request, 'post', '/api/v1/dispatch/changes', {
          runKey: working.run.key,
          kind: 'shift',
          shiftMinutes: -15,
          reason: 'e2e: опоздание для проверки экранов',
        });
        return true;
      },
      { timeout: 90_000, intervals: [2_000] },
    )
    .toBe(true);
  // the engine applies the thresholds at its next tick; a vehicle on a run and behind its timetable is then late
  await expect
    .poll(
      async () => {
        const board = await call<BoardList>(request, 'get', '/api/v1/dispatch/exceptions?kind=late');
        const row = board.list.find((e) => e.vehicleId !== null && e.routeId !== null);
        if (!row) return false;
        const card = await call<VehicleCard>(request, 'get', `/api/v1/dispatch/vehicles/${row.vehicleId}/card`);
        if (card.adherence !== 'late' || !card.nextStops.length) return false;
        late = { vehicleId: row.vehicleId!, routeId: row.routeId!, key: row.key };
        nextStop = card.nextStops[0].stopId;
        return true;
      },
      { timeout: 90_000, intervals: [2_000] },
    )
    .toBe(true);
});

test.afterAll(async ({ request }) => {
  if (moved) await call(request, 'post', `/api/v1/dispatch/changes/${moved.id}/revoke`, {});
  await call(request, 'put', '/api/v1/settings/navigation', { dispatch: { lateSeconds: 180 } });
});

test('the board shows the exceptions with counters by kind, and one is acknowledged with a comment', async ({ page }) => {
  await open(page, '/dispatch/board');
  const counter = page.getByTestId('board-counter-late');
  await expect(counter).toBeVisible();
  expect(Number(await counter.getAttribute('data-count'))).toBeGreaterThan(0);
  const row = page.locator(`[data-testid="board-row"][data-kind="late"][data-vehicle-id="${late.vehicleId}"]`);
  await expect(row).toBeVisible();
  await expect(row.getByTestId('board-deviation')).toHaveText(/^\+/);
  await row.getByTestId('board-ack-open').click();
  await page.getByTestId('board-ack-comment').fill('Пробка, диспетчер в курсе');
  await page.getByTestId('board-ack-save').click();
  await expect(page.getByTestId('board-ack-dialog')).toHaveCount(0);
  await expect(row).toHaveAttribute('data-acknowledged', 'true');
  await expect(row.getByTestId('board-ack')).toContainText('Пробка, диспетчер в курсе');
  // the kind's filter keeps the counters of every kind
  await counter.click();
  await expect(page).toHaveURL(/kind=late/);
  await expect(page.locator('[data-testid="board-row"]:not([data-kind="late"])')).toHaveCount(0);
  await expect(page.getByTestId('board-counters').getByRole('button')).toHaveCount(EXCEPTION_KINDS.length);
});

test('the line diagram draws the route with its vehicles, the late one late, and opens its card', async ({ page }) => {
  await open(page, `/dispatch/lines?routes=${late.routeId}`);
  const route = page.getByTestId('line-route');
  await expect(route.getByTestId('line-direction').first()).toBeVisible();
  expect(await route.getByTestId('line-stop').count()).toBeGreaterThan(2);
  const vehicle = route.locator(`[data-testid="line-vehicle"][data-vehicle-id="${late.vehicleId}"]`);
  await expect(vehicle).toHaveAttribute('data-adherence', 'late');
  await vehicle.locator('circle').click();
  const card = page.getByTestId('line-vehicle-card');
  await expect(card.getByTestId('vehicle-dispatch')).toHaveAttribute('data-adherence', 'late');
  await expect(card.getByTestId('vehicle-dispatch-stops')).toBeVisible();
});

test('the map colours the late vehicle by adherence and its card shows its run and next stops', async ({ page }) => {
  await open(page, `/map?vehicle=${late.vehicleId}`);
  const map = page.getByTestId('map');
  await expect(map).toBeVisible();
  await page.getByTestId('map-colour-adherence').click();
  await expect(map).toHaveAttribute('data-colour-mode', 'adherence');
  const lateEntry = page.locator('[data-testid="map-legend-entry"][data-entry="late"]');
  await expect.poll(async () => Number(await lateEntry.getAttribute('data-count'))).toBeGreaterThan(0);
  const popup = page.getByTestId('map-popup-vehicle');
  await expect(popup).toHaveAttribute('data-vehicle-id', String(late.vehicleId));
  await expect(popup.getByTestId('vehicle-dispatch')).toHaveAttribute('data-adherence', 'late');
  await expect(popup.getByTestId('vehicle-dispatch-stops')).toBeVisible();
});

test('a stop ahead of the late vehicle shows its arrivals counting down', async ({ page }) => {
  await open(page, `/map?stop=${nextStop}`);
  const arrivals = page.getByTestId('map-popup-stop').getByTestId('stop-arrivals');
  const arrival = arrivals.locator(`[data-testid="stop-arrival"][data-vehicle-id="${late.vehicleId}"]`).first();
  await expect(arrival).toBeVisible();
  expect(Number(await arrival.getAttribute('data-minutes'))).toBeGreaterThanOrEqual(0);
  expect(Number(await arrival.getAttribute('data-minutes'))).toBeLessThanOrEqual(60);
  await expect(arrivals.locator(`[data-testid="stop-arrivals-route"][data-route-id="${late.routeId}"]`).first()).toBeVisible();
});

test("the plan and fact lists the day's runs of the late vehicle's route with their status, and why one was not performed", async ({
  page,
}) => {
  await open(page, `/dispatch/exits?route=${late.routeId}`);
  const rows = page.getByTestId('exits-row');
  // the day's runs with their reasons take a moment on a busy machine
  await expect(rows.first()).toBeVisible({ timeout: 15_000 });
  await expect(page.getByTestId('exits-totals')).toBeVisible();
  expect(
    await page.locator('[data-testid="exits-row"][data-status="in_progress"], [data-testid="exits-row"][data-status="performed"]').count(),
  ).toBeGreaterThan(0);
  // every run not performed, or only partly, says why in words; the others say nothing
  const missed = page.locator('[data-testid="exits-row"][data-status="not_performed"], [data-testid="exits-row"][data-status="partial"]');
  for (const row of await missed.all()) await expect(row.getByTestId('exits-reason')).not.toBeEmpty();
  await expect(page.locator('[data-testid="exits-row"][data-status="performed"] [data-testid="exits-reason"]')).toHaveCount(0);
});
