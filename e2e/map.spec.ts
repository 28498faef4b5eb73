import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { routeOptionLabel } from '../src/web/map/filter/mapFilter';
import { parseWktPoint } from '../src/web/map/wkt';
import type { CurrentUser } from '../src/shared/api';
import type { MapFilters, MapRoute, OnlineVehicle } from '../src/shared/map';
import { LAYOUT } from '../src/shared/constants';
import { GROUP_CLICK_ZOOM_STEP, STOPS_MINIMISED_MAX_ZOOM, VEHICLE_LOCATE_ZOOM } from '../src/shared/map';
import { ACCOUNTS, signIn } from './helpers';

/**
 * The live map (/map) against the running product: the simulated fleet on the vehicle canvas, a group's click,
 * a vehicle's popup, a stop's popup, a route with its stops, the filter, the replay of a track, the saved
 * position. The map container carries what the canvas draws (data-vehicle-count, data-item-count,
 * data-last-update, data-groups, data-route-count, data-route-stop-count, data-track-points, data-zoom).
 */
const SCREENS = 'test-results/screens';

async function api<T>(request: APIRequestContext, path: string): Promise<T> {
  const login = await request.post('/api/v1/auth/login', { data: { username: 'admin', password: ACCOUNTS.admin } });
  const { token } = (await login.json()) as { token: string };
  const response = await request.get(path, { headers: { authorization: `Bearer ${token}` } });
  expect(response.status(), `${path}: ${await response.text()}`).toBe(200);
  return (await response.json()) as T;
}

const data = (map: Locator, name: string) => map.evaluate((element, key) => (element as HTMLElement).dataset[key] ?? '', name);
const num = async (map: Locator, name: string) => Number(await data(map, name));
const canvasImage = (page: Page) => page.getByTestId('map-vehicles-canvas').evaluate((canvas) => (canvas as HTMLCanvasElement).toDataURL());

async function openMap(page: Page): Promise<Locator> {
  await signIn(page, 'admin');
  await page.goto('/map');
  const map = page.getByTestId('map');
  await expect(map).toBeVisible();
  return map;
}

/** Vehicles the simulator has put on the map, most recent first. */
async function positionedVehicles(request: APIRequestContext): Promise<{ filters: MapFilters; online: OnlineVehicle[] }> {
  const filters = await api<MapFilters>(request, '/api/v1/map/filters');
  const online = await api<OnlineVehicle[]>(request, `/api/v1/map/online?q=${filters.vehicles.map((v) => v.id).join(',')}`);
  return { filters, online: online.filter((v) => v.center !== null) };
}

/** Zooms with the map's buttons, one step at a time (a click during the zoom animation is lost). */
async function zoomBy(map: Locator, steps: number): Promise<void> {
  for (let i = 0; i < Math.abs(steps); i++) {
    const before = await num(map, 'zoom');
    await map.locator(steps > 0 ? '.leaflet-control-zoom-in' : '.leaflet-control-zoom-out').click();
    await expect.poll(() => num(map, 'zoom')).toBe(before + Math.sign(steps));
  }
}

/**
 * Page coordinates of a [lat, lon] on the map as it stands, from the coordinates the map shows under the cursor
 * at two points (Web Mercator: x linear in longitude, y in the Mercator ordinate).
 */
async function screenProjection(page: Page, map: Locator): Promise<(at: [number, number]) => [number, number]> {
  const box = (await map.boundingBox())!;
  const mercator = (lat: number) => Math.log(Math.tan(Math.PI / 4 + (lat * Math.PI) / 360));
  const cursor = page.getByTestId('map-cursor');
  const probe = async (x: number, y: number) => {
    // the readout follows the mouse a render later: wait for it to change, or both probes may read one point
    const before = (await cursor.count()) ? ((await cursor.textContent()) ?? '') : '';
    await page.mouse.move(x, y);
    await expect(cursor).not.toHaveText(before);
    await expect(cursor).toHaveText(/^\d+\.\d{5}, \d+\.\d{5}$/);
    const [lat, lon] = (await cursor.textContent())!.split(', ').map(Number);
    return { x, y, lon, y0: mercator(lat) };
  };
  const a = await probe(box.x + box.width * 0.3, box.y + box.height * 0.3);
  const b = await probe(box.x + box.width * 0.7, box.y + box.height * 0.7);
  return ([lat, lon]) => [
    a.x + ((lon - a.lon) * (b.x - a.x)) / (b.lon - a.lon),
    a.y + ((mercator(lat) - a.y0) * (b.y - a.y)) / (b.y0 - a.y0),
  ];
}

async function search(page: Page, text: string, option: string): Promise<void> {
  await page.getByTestId('map-search-input').fill(text);
  await page.getByTestId(option).click();
}

test.describe('map', () => {
  test.describe.configure({ timeout: 60_000 });

  test('the top panel is 42 px high, the base map right under it', async ({ page }) => {
    const map = await openMap(page);
    await expect(map).toHaveAttribute('data-base-map', '');
    await expect(map.locator('.leaflet-control-attribution a[href="https://leafletjs.com"]')).toHaveText('Leaflet');
    const panel = (await page.getByTestId('map-toolbar').boundingBox())!;
    expect(panel.height).toBe(LAYOUT.topPanel);
    const box = (await map.boundingBox())!;
    expect(box.y).toBeCloseTo(panel.y + panel.height, 0);
    await page.screenshot({ path: `${SCREENS}/map-top-panel.png`, clip: { x: 0, y: 0, width: 1280, height: 120 } });
    // a narrow window keeps the panel on one row
    await page.setViewportSize({ width: 700, height: 700 });
    await expect.poll(async () => (await page.getByTestId('map-toolbar').boundingBox())?.height).toBe(LAYOUT.topPanel);
  });

  test('shows the simulated fleet moving on the vehicle canvas', async ({ page, request }) => {
    const { filters, online } = await positionedVehicles(request);
    // watched up close, a vehicle on a race now: at night few run, and none may in the first view
    const moving = online.find((v) => (v.speed ?? 0) > 0) ?? online[0];
    const map = await openMap(page);
    await expect.poll(() => num(map, 'vehicleCount'), { timeout: 15_000 }).toBeGreaterThan(0);
    await page.screenshot({ path: `${SCREENS}/map-fleet.png` });
    const listed = filters.vehicles.find((v) => v.id === moving.id);
    await search(page, String(listed?.depotNumber ?? moving.depotNumber), `map-search-vehicle-${moving.id}`);
    await expect.poll(() => num(map, 'zoom')).toBe(VEHICLE_LOCATE_ZOOM);
    await page.locator('.leaflet-popup-close-button').click();
    const firstUpdate = await data(map, 'lastUpdate');
    const firstImage = await canvasImage(page);
    await expect.poll(() => data(map, 'lastUpdate'), { timeout: 15_000 }).not.toBe(firstUpdate);
    await expect.poll(() => canvasImage(page), { timeout: 15_000 }).not.toBe(firstImage);
    expect(await page.locator('.leaflet-marker-icon[src*="marker-icon"]').count()).toBeLessThan(50);
    await expect(page.getByTestId('map-status')).toHaveCount(0);
  });

  test('a click on a group of vehicles zooms in by two', async ({ page }) => {
    const map = await openMap(page);
    await expect.poll(() => num(map, 'vehicleCount'), { timeout: 15_000 }).toBeGreaterThan(0);
    // the canvas lists the groups it drew (data-groups "x,y,count;…", container pixels); zoom out until there are some
    for (let i = 0; i < 3 && !(await data(map, 'groups')); i++) {
      await page.waitForTimeout(1000);
      if (!(await data(map, 'groups'))) await zoomBy(map, -1);
    }
    const before = await num(map, 'zoom');
    const box = (await map.boundingBox())!;
    // groups drift as their buses move and a marker may cover one: pick one the map itself would receive, retry if missed
    await expect(async () => {
      const groups = (await data(map, 'groups'))
        .split(';')
        .filter(Boolean)
        .map((g) => g.split(',').map(Number));
      expect(groups.length).toBeGreaterThan(0);
      const target = await page.evaluate(
        ({ groups, left, top }) =>
          groups.find(([x, y]) => {
            const element = document.elementFromPoint(left + x, top + y);
            return (
              element !== null &&
              !element.closest('.leaflet-marker-icon, .leaflet-control, .leaflet-popup, .leaflet-interactive, [data-testid="map-toolbar"]')
            );
          }) ?? null,
        { groups, left: box.x, top: box.y },
      );
      expect(target).not.toBeNull();
      await page.mouse.click(box.x + target![0], box.y + target![1]);
      await expect.poll(() => num(map, 'zoom'), { timeout: 3000 }).toBe(before + GROUP_CLICK_ZOOM_STEP);
    }).toPass({ timeout: 20_000 });
    await expect(page.getByTestId('map-popup-vehicle')).toHaveCount(0);
    await page.screenshot({ path: `${SCREENS}/map-group-zoomed.png` });
  });

  test('a stop’s popup names the routes through it', async ({ page, request }) => {
    const filters = await api<MapFilters>(request, '/api/v1/map/filters');
    const chosen = filters.routes[0];
    const [route] = await api<MapRoute[]>(request, `/api/v1/map/routes?q=${chosen.id}`);
    const map = await openMap(page);
    // vehicles off: a bus waiting at the stop would take the click (vehicles are drawn over stops)
    await page.getByTestId('map-layers-button').click();
    await page.getByTestId('map-layers').getByLabel('Транспортные средства').uncheck();
    await page.keyboard.press('Escape');
    await search(page, chosen.name, `map-search-route-${chosen.id}`);
    await expect.poll(() => num(map, 'routeStopCount')).toBeGreaterThan(0);
    await page.waitForTimeout(600);
    // stops are drawn on the canvas: place a terminal stop (drawn at every zoom) on screen by the map's projection
    const toScreen = await screenProjection(page, map);
    const box = (await map.boundingBox())!;
    const terminals = route.stops.filter((stop) => stop.terminal).map((stop) => toScreen(parseWktPoint(stop.geo)!));
    const target = await page.evaluate(
      (points) =>
        points.find(([x, y]) => {
          const element = document.elementFromPoint(x, y);
          return element !== null && !element.closest('.leaflet-marker-icon, .leaflet-control, .leaflet-popup');
        }) ?? null,
      terminals.filter(([x, y]) => x > box.x + 10 && y > box.y + 10 && x < box.x + box.width - 10 && y < box.y + box.height - 10),
    );
    expect(target).not.toBeNull();
    await page.mouse.click(target![0], target![1]);
    const popup = page.getByTestId('map-popup-stop');
    await expect(popup).toBeVisible();
    await expect(popup).toContainText(/\d+\.\d{5}, \d+\.\d{5}/);
    await expect(popup.getByRole('button', { name: route.route_short_name, exact: true })).toBeVisible();
    await page.screenshot({ path: `${SCREENS}/map-stop-popup.png` });
  });

  test('locating a vehicle from the search opens its details', async ({ page, request }) => {
    const { filters, online } = await positionedVehicles(request);
    expect(online.length).toBeGreaterThan(0);
    const vehicle = online[0];
    const listed = filters.vehicles.find((v) => v.id === vehicle.id);
    const map = await openMap(page);
    await search(page, String(listed?.depotNumber ?? vehicle.depotNumber), `map-search-vehicle-${vehicle.id}`);
    const popup = page.getByTestId('map-popup-vehicle');
    await expect(popup).toBeVisible();
    await expect(popup).toHaveAttribute('data-vehicle-id', String(vehicle.id));
    await expect(popup).toContainText(String(vehicle.depotNumber));
    await expect(popup).toContainText(/\d+\.\d{5}, \d+\.\d{5}/);
    await expect(popup.getByRole('link', { name: 'Видео' })).toHaveAttribute('href', `/video/online?vehicle=${vehicle.id}`);
    await expect.poll(() => num(map, 'zoom')).toBe(VEHICLE_LOCATE_ZOOM);
    await page.screenshot({ path: `${SCREENS}/map-vehicle-popup.png` });
    await page.locator('.leaflet-popup-close-button').click();
    await expect(popup).toHaveCount(0);
  });

  test('a route chosen in the search is drawn with its stops', async ({ page, request }) => {
    const filters = await api<MapFilters>(request, '/api/v1/map/filters');
    const chosen = filters.routes[0];
    const [route] = await api<MapRoute[]>(request, `/api/v1/map/routes?q=${chosen.id}`);
    expect(route.trajectory.length).toBeGreaterThan(0);
    const map = await openMap(page);
    await search(page, chosen.name, `map-search-route-${chosen.id}`);
    await expect.poll(() => num(map, 'routeCount')).toBe(1);
    await page.waitForTimeout(600);
    const zoom = await num(map, 'zoom');
    const expected = zoom > STOPS_MINIMISED_MAX_ZOOM ? route.stops.length : route.stops.filter((s) => s.terminal).length;
    await expect.poll(() => num(map, 'routeStopCount')).toBe(expected);
    expect(expected).toBeGreaterThan(0);
    await page.screenshot({ path: `${SCREENS}/map-route.png` });
  });

  test('the filter narrows the vehicles to one route', async ({ page, request }) => {
    const { filters, online } = await positionedVehicles(request);
    const perRoute = new Map<number, number>();
    for (const v of online) if (v.route_id !== null) perRoute.set(v.route_id, (perRoute.get(v.route_id) ?? 0) + 1);
    const [routeId, onRoute] = [...perRoute.entries()].sort((a, b) => a[1] - b[1])[0];
    const route = filters.routes.find((r) => r.id === routeId)!;
    const { transporttype } = await api<CurrentUser>(request, '/api/v1/auth/current/');
    const name = routeOptionLabel(route, transporttype);
    const map = await openMap(page);
    await expect.poll(() => num(map, 'vehicleCount'), { timeout: 15_000 }).toBeGreaterThan(onRoute);
    await page.getByTestId('map-filter-button').click();
    await page.getByTestId('map-filter-routes').click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Поиск').fill(route.name);
    await dialog.getByRole('option', { name, exact: true }).click();
    await dialog.getByRole('button', { name: 'Выбрать' }).click();
    await expect(page.getByTestId('map-filter-chip')).toBeVisible();
    await expect.poll(() => num(map, 'vehicleCount'), { timeout: 15_000 }).toBeLessThanOrEqual(onRoute);
    expect(await num(map, 'routeCount')).toBe(1);
    await page.screenshot({ path: `${SCREENS}/map-filter.png` });
    await page.getByTestId('map-filter-chip').locator('.MuiChip-deleteIcon').click();
    await expect.poll(() => num(map, 'vehicleCount'), { timeout: 15_000 }).toBeGreaterThan(onRoute);
  });

  test('previous data: a vehicle’s last minutes replayed', async ({ page, request }) => {
    const { filters, online } = await positionedVehicles(request);
    const vehicle = filters.vehicles.find((v) => v.id === online[0].id)!;
    await openMap(page);
    const map = page.getByTestId('map');
    await page.getByTestId('map-mode-previous').click();
    await page.getByTestId('replay-vehicle').fill(String(vehicle.depotNumber));
    await page
      .getByRole('option', { name: new RegExp(`^${vehicle.depotNumber}\\b`) })
      .first()
      .click();
    // datetime-local values in the browser's time zone (Europe/Moscow), not this process's
    const [from, to] = await page.evaluate(() =>
      [-10, 2].map((minutes) => {
        const d = new Date(Date.now() + minutes * 60_000);
        const p2 = (n: number) => String(n).padStart(2, '0');
        return `${d.getFullYear()}-${p2(d.getMonth() + 1)}-${p2(d.getDate())}T${p2(d.getHours())}:${p2(d.getMinutes())}`;
      }),
    );
    await page.getByTestId('replay-from').fill(from);
    await page.getByTestId('replay-to').fill(to);
    await page.getByTestId('replay-load').click();
    await expect.poll(() => num(map, 'trackPoints'), { timeout: 15_000 }).toBeGreaterThan(1);
    const slider = page.getByTestId('replay-slider');
    const start = Number(await slider.getAttribute('data-time'));
    const shown = await page.getByTestId('replay-time').textContent();
    expect(shown).toMatch(/^\d{2}\.\d{2}\.\d{4} \d{2}:\d{2}:\d{2}$/);
    await page.getByRole('button', { name: '×64' }).click();
    await page.getByTestId('replay-play').click();
    await expect.poll(async () => Number(await slider.getAttribute('data-time'))).toBeGreaterThan(start);
    await expect(page.getByTestId('replay-time')).not.toHaveText(shown ?? '');
    await expect(page.getByTestId('replay-speed')).toContainText('км/ч');
    await page.screenshot({ path: `${SCREENS}/map-replay.png` });
  });

  test('an empty period says so', async ({ page, request }) => {
    const filters = await api<MapFilters>(request, '/api/v1/map/filters');
    const vehicle = filters.vehicles[0];
    await openMap(page);
    await page.getByTestId('map-mode-previous').click();
    await page.getByTestId('replay-vehicle').fill(String(vehicle.depotNumber));
    await page
      .getByRole('option', { name: new RegExp(`^${vehicle.depotNumber}\\b`) })
      .first()
      .click();
    await page.getByTestId('replay-from').fill('2001-01-01T10:00');
    await page.getByTestId('replay-to').fill('2001-01-01T12:00');
    await page.getByTestId('replay-load').click();
    await expect(page.getByTestId('replay-empty')).toHaveText('За выбранный период данных нет');
  });

  test('the position is saved with the user and restored', async ({ page, request }) => {
    const map = await openMap(page);
    await zoomBy(map, 1);
    const zoom = await num(map, 'zoom');
    await page.getByTestId('map-save-position').click();
    await expect(page.getByText('Положение карты сохранено')).toBeVisible();
    await expect
      .poll(async () => (await api<{ mapSettings: { zoom: number } }>(request, '/api/v1/auth/current/')).mapSettings.zoom)
      .toBe(zoom);
    await zoomBy(map, -2);
    expect(await num(map, 'zoom')).toBe(zoom - 2);
    await page.getByTestId('map-restore-position').click();
    await expect.poll(() => num(map, 'zoom')).toBe(zoom);
    await page.mouse.move(600, 500);
    await expect(page.getByTestId('map-cursor')).toHaveText(/^\d+\.\d{5}, \d+\.\d{5}$/);
  });

  test('the layers panel remembers the choice; the incident layer has its period and legend', async ({ page }) => {
    const map = await openMap(page);
    await page.getByTestId('map-layers-button').click();
    const stops = page.getByTestId('map-layers').getByLabel('Остановки');
    await expect(stops).toBeChecked();
    await expect(page.getByTestId('map-layers').getByLabel('Инциденты ИСПВ')).not.toBeChecked();
    await stops.uncheck();
    await page.keyboard.press('Escape');
    await page.reload();
    await page.getByTestId('map-layers-button').click();
    await expect(page.getByTestId('map-layers').getByLabel('Остановки')).not.toBeChecked();
    await page.getByTestId('map-layers').getByLabel('Остановки').check();
    await page.getByTestId('map-layers').getByLabel('Инциденты ИСПВ').check();
    await page.keyboard.press('Escape');
    const panel = page.getByTestId('map-incidents-panel');
    await expect(panel).toBeVisible();
    await expect(page.getByTestId('map-incidents-legend').locator('p, span').first()).toBeVisible();
    await expect.poll(() => data(map, 'incidentCount')).not.toBe('');
    await page.screenshot({ path: `${SCREENS}/map-incidents.png` });
  });
});
