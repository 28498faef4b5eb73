import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import type { DispatchOptions, DispatchVehicleList } from '../src/shared/dispatch/api';
import type { ChangeRun, ChangeRunList, ChangesList, RouteStops } from '../src/shared/dispatch/control';
import { ACCOUNTS } from './helpers';

/**
 * Same-day service control against the running demo (the simulator drives the fleet, its terminals answer over
 * the EGTS commands service): a dispatcher cancels a run on «Изменения движения» and finds it cancelled with its
 * reason on «План и факт»; closes a stop and enters a detour, sees them listed, then restores them; a message to a
 * vehicle on the line moves from sent to delivered and read on
 * «Сообщения водителям». Signed in by the token (no login screen).
 */
test.describe.configure({ mode: 'serial' });

let token = '';
let routeId = 0;
let run: ChangeRun;
let vehicleId = 0;
const REASON = 'Нет водителя на выход';
const ADD_REASON = 'Концерт: дополнительный рейс';
const CLOSE_REASON = 'Ремонт остановочного павильона';
const DETOUR_REASON = 'Перекрытие улицы: объезд';

async function get<T>(request: APIRequestContext, path: string): Promise<T> {
  const response = await request.get(path, { headers: { authorization: `Bearer ${token}` } });
  expect(response.status(), `${path}: ${await response.text()}`).toBe(200);
  return (await response.json()) as T;
}

async function open(page: Page, path: string): Promise<void> {
  await page.addInitScript((value) => localStorage.setItem('token', value), token);
  await page.goto(path);
}

test.beforeAll(async ({ request }) => {
  test.setTimeout(120_000);
  const login = await request.post('/api/v1/auth/login', { data: { username: 'admin', password: ACCOUNTS.admin } });
  ({ token } = (await login.json()) as { token: string });
  // a route with a run of today still ahead, and a vehicle the engine sees reporting now (its terminal is reachable)
  await expect
    .poll(
      async () => {
        const options = await get<DispatchOptions>(request, '/api/v1/dispatch/options');
        for (const route of options.routes) {
          const runs = await get<ChangeRunList>(request, `/api/v1/dispatch/changes/runs?route=${route.id}`);
          const ahead = runs.list.find(
            (r) => !r.cancelled && r.shiftMinutes === null && Date.parse(r.plannedStart) > Date.now() + 10 * 60_000,
          );
          if (ahead) {
            routeId = route.id;
            run = ahead;
            break;
          }
        }
        const vehicles = await get<DispatchVehicleList>(request, '/api/v1/dispatch/vehicles');
        vehicleId = vehicles.list.find((v) => v.lastFix && Date.now() - Date.parse(v.lastFix) < 60_000)?.vehicleId ?? 0;
        return routeId > 0 && vehicleId > 0;
      },
      { timeout: 90_000, intervals: [3_000] },
    )
    .toBe(true);
});

test.afterAll(async ({ request }) => {
  // the demo keeps its timetable: the run is restored
  const changes = await get<ChangesList>(request, '/api/v1/dispatch/changes');
  for (const c of changes.list.filter(
    (x) => (x.runKey === run?.runKey || [ADD_REASON, CLOSE_REASON, DETOUR_REASON].includes(x.reason)) && !x.revokedAt,
  )) {
    await request.post(`/api/v1/dispatch/changes/${c.id}/revoke`, { headers: { authorization: `Bearer ${token}` }, data: {} });
  }
});

test('a run cancelled on «Изменения движения» shows cancelled with its reason on «План и факт»', async ({ page }) => {
  await open(page, `/dispatch/changes?route=${routeId}`);
  const row = page.locator(`[data-testid="change-run-row"][data-graph="${run.graph}"][data-race="${run.raceNum}"]`).first();
  await expect(row).toBeVisible();
  await row.getByTestId('change-run-cancel').click();
  await page.getByTestId('change-reason').fill(REASON);
  await page.getByTestId('change-save').click();
  await expect(page.getByTestId('change-dialog')).toBeHidden();
  const change = page.locator('[data-testid="change-row"][data-kind="cancel"][data-revoked="false"]').filter({ hasText: REASON });
  await expect(change).toBeVisible();
  await expect(change).toContainText('admin');
  await expect(row).toHaveAttribute('data-cancelled', 'true');

  await open(page, `/dispatch/exits?date=${run.runKey.slice(0, 10)}&route=${routeId}`);
  const cancelled = page.locator(`[data-testid="exits-row"][data-status="cancelled"][data-graph="${run.graph}"]`);
  await expect(cancelled).toHaveCount(1);
  await expect(cancelled.getByTestId('exits-cancel-reason')).toContainText(REASON);
});

test('a message to a vehicle on the line is sent, delivered and read by its terminal', async ({ page }) => {
  test.setTimeout(60_000);
  await open(page, `/dispatch/messages?vehicle=${vehicleId}`);
  const text = `Свяжитесь с диспетчером (${Date.now() % 100_000})`;
  await page.getByTestId('message-text').fill(text);
  await page.getByTestId('message-send').click();
  const row = page.getByTestId('message-row').filter({ hasText: text });
  await expect(row).toBeVisible();
  const delivery = row.getByTestId('message-delivery');
  await expect(delivery).toHaveAttribute('data-state', /^(sent|delivered|read)$/, { timeout: 15_000 });
  await expect(delivery).toHaveAttribute('data-state', 'read', { timeout: 40_000 });
  await expect(delivery).toContainText('Прочитано');
});

test('a run added on «Изменения движения» shows on «План и факт» marked added', async ({ page }) => {
  await open(page, `/dispatch/changes?route=${routeId}`);
  await page.getByTestId('changes-add-run').click();
  await expect(page.getByTestId('add-run-dialog')).toBeVisible();
  await page.getByTestId('add-run-reason').fill(ADD_REASON);
  await page.getByTestId('add-run-save').click();
  await expect(page.getByTestId('add-run-dialog')).toBeHidden();
  const change = page.locator('[data-testid="change-row"][data-kind="add"][data-revoked="false"]').filter({ hasText: ADD_REASON });
  await expect(change).toBeVisible();
  await expect(change).toContainText('admin');

  await open(page, `/dispatch/exits?date=${run.runKey.slice(0, 10)}&route=${routeId}`);
  const added = page.locator('[data-testid="exits-row"][data-added="true"]');
  await expect(added).toHaveCount(1);
  await expect(added.getByTestId('exits-added')).toContainText('Добавлен');
  await expect(added).toHaveAttribute('data-graph', '0');
});

test('a stop closed and a detour entered on «Изменения движения» are listed and noticed, then restored', async ({ page, request }) => {
  const stops = (await get<RouteStops>(request, `/api/v1/dispatch/changes/route-stops?route=${routeId}`)).directions[0].stops;
  expect(stops.length).toBeGreaterThan(3);
  await open(page, `/dispatch/changes?route=${routeId}`);

  await page.getByTestId('changes-close-stop').click();
  const closing = page.getByTestId('close-stop-dialog');
  await closing.getByRole('combobox').first().click();
  await page.getByRole('option').nth(1).click();
  await page.getByTestId('close-stop-reason').fill(CLOSE_REASON);
  await page.getByTestId('close-stop-save').click();
  await expect(closing).toBeHidden();
  const closed = page.locator('[data-testid="change-row"][data-kind="close_stop"][data-revoked="false"]').filter({ hasText: CLOSE_REASON });
  await expect(closed).toBeVisible();
  await expect(page.locator('[data-testid="stop-notice"][data-kind="close_stop"]').filter({ hasText: CLOSE_REASON })).toBeVisible();

  // the detour 300 m north of the line from the second stop to the fourth, entered as WKT
  await page.getByTestId('changes-detour').click();
  const dialog = page.getByTestId('detour-dialog');
  const boxes = dialog.getByRole('combobox');
  await boxes.nth(1).click();
  await page.getByRole('option').nth(1).click();
  await boxes.nth(2).click();
  await page.getByRole('option').nth(3).click();
  const [a, b] = [stops[1], stops[3]];
  const north = 300 / 110_574;
  const wkt = `LINESTRING(${a.lon} ${a.lat}, ${a.lon} ${a.lat + north}, ${b.lon} ${b.lat + north}, ${b.lon} ${b.lat})`;
  await page.getByTestId('detour-path').fill(wkt);
  await expect(dialog.getByTestId('detour-preview')).toBeVisible();
  await page.getByTestId('detour-reason').fill(DETOUR_REASON);
  await page.getByTestId('detour-save').click();
  await expect(dialog).toBeHidden();
  const detour = page.locator('[data-testid="change-row"][data-kind="detour"][data-revoked="false"]').filter({ hasText: DETOUR_REASON });
  await expect(detour).toBeVisible();
  await expect(detour.getByTestId('detour-preview')).toBeVisible();
  await expect(page.locator('[data-testid="stop-notice"][data-kind="detour"]').filter({ hasText: DETOUR_REASON })).toBeVisible();

  for (const reason of [CLOSE_REASON, DETOUR_REASON]) {
    await page.locator('[data-testid="change-row"][data-revoked="false"]').filter({ hasText: reason }).getByTestId('change-revoke').click();
    await expect(page.locator('[data-testid="change-row"][data-revoked="true"]').filter({ hasText: reason })).toBeVisible();
  }
  await expect(page.getByTestId('stop-notice')).toHaveCount(0);
});
