import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import type { ControllerTask, DepartmentMap } from '../src/shared/bc/tasks';
import type { MapFilters, OnlineVehicle } from '../src/shared/map';
import type { HandbookType } from '../src/shared/handbooks/types';
import { ACCOUNTS, fillLogin, signIn, submitButton } from './helpers';

/**
 * Names people type are shown on the maps as text, never read as HTML: markup stored in every free-text field
 * a map or its tooltips and popups show (control regions, employees, departments, stops, routes, vehicles'
 * models, branches, enterprises) creates no element on any map screen, and its script never runs.
 */

const IMG = '<img src=x onerror="window.__xss=1">';
const SVG = '<svg onload="window.__xss=2">';
/** Short enough for the 50 characters of a vehicle's model. */
const SHORT = '<img src=x onerror=window.__xss=3>';
/** Where the demo controller reports from (inside one of its department's control regions). */
const CONTROLLER_AT = { lat: 59.9343, lon: 30.3351 };

type Row = Record<string, unknown>;
interface Marked {
  type: HandbookType;
  key: string;
  field: string;
  rows: Row[];
}

async function token(request: APIRequestContext, username: keyof typeof ACCOUNTS): Promise<string> {
  const login = await request.post('/api/v1/auth/login', { data: { username, password: ACCOUNTS[username] } });
  expect(login.status()).toBe(200);
  return ((await login.json()) as { token: string }).token;
}

async function post<T>(request: APIRequestContext, authorization: string, path: string, data: unknown): Promise<T> {
  const response = await request.post(path, { data, headers: { authorization } });
  expect(response.status(), `${path}: ${await response.text()}`).toBeLessThan(300);
  return (await response.json()) as T;
}

/** Nothing the stored markup would have created is in the page, and its script never ran. */
async function expectNoInjectedMarkup(page: Page, where: string): Promise<void> {
  const found = await page.evaluate(() => ({
    elements: document.querySelectorAll('img[src="x"], svg[onload], [onerror]').length,
    ran: (window as unknown as { __xss?: unknown }).__xss ?? null,
  }));
  expect(found, where).toEqual({ elements: 0, ran: null });
}

/** Hovers a map shape and expects its tooltip to show the stored markup as typed. */
async function hoverTooltip(page: Page, shape: Locator, text: string): Promise<void> {
  await shape.hover({ force: true });
  await expect(page.locator('.leaflet-tooltip').filter({ hasText: text }).first()).toBeVisible();
}

const data = (map: Locator, key: string) => map.evaluate((element, name) => (element as HTMLElement).dataset[name] ?? '', key);

/** Web Mercator pixels of a point at a zoom (Leaflet's 256-pixel tiles). */
function worldPixel(lat: number, lon: number, zoom: number): { x: number; y: number } {
  const scale = 256 * 2 ** zoom;
  const sin = Math.sin((lat * Math.PI) / 180);
  return { x: (scale * (lon + 180)) / 360, y: scale * (0.5 - Math.log((1 + sin) / (1 - sin)) / (4 * Math.PI)) };
}

/**
 * Hovers a point of a canvas-drawn map (the field app's: its shapes are no elements) once its view has settled
 * (data-center and data-zoom), and expects a tooltip showing the stored markup as typed.
 */
async function hoverCanvasTooltip(page: Page, map: Locator, lat: number, lon: number, text: string): Promise<void> {
  let centre = '';
  await expect
    .poll(
      async () => {
        const now = `${await data(map, 'center')}@${await data(map, 'zoom')}`;
        const settled = now === centre && !now.startsWith('@');
        centre = now;
        return settled;
      },
      { intervals: [500] },
    )
    .toBe(true);
  const [cLat, cLon] = (await data(map, 'center')).split(',').map(Number);
  const zoom = Number(await data(map, 'zoom'));
  const box = (await map.boundingBox())!;
  const point = worldPixel(lat, lon, zoom);
  const middle = worldPixel(cLat, cLon, zoom);
  const x = box.x + box.width / 2 + point.x - middle.x;
  const y = box.y + box.height / 2 + point.y - middle.y;
  expect(x > box.x && x < box.x + box.width && y > box.y && y < box.y + box.height, `${lat},${lon} on the map`).toBe(true);
  await page.mouse.move(x - 30, y - 30);
  await page.mouse.move(x, y, { steps: 5 });
  await expect(page.locator('.leaflet-tooltip').filter({ hasText: text }).first()).toBeVisible();
}

test.describe('stored markup on the maps', () => {
  test.describe.configure({ timeout: 180_000 });

  let admin: string;
  let vehicle: OnlineVehicle;
  let route: MapFilters['routes'][number];
  let region: Row;
  let stop: Row;
  const marked: Marked[] = [];

  /** Appends the markup to a field of the chosen rows of a handbook, remembering them to put back. */
  async function mark(
    request: APIRequestContext,
    type: HandbookType,
    key: string,
    field: string,
    pick: (rows: Row[]) => Row[],
    markup = `${IMG}${SVG}`,
  ): Promise<Row[]> {
    const { list } = await post<{ list: Row[] }>(request, admin, '/api/table/list', { config: { type }, perPage: 1000 });
    const rows = pick(list);
    marked.push({ type, key, field, rows });
    await saveAll(
      request,
      type,
      rows.map((row) => ({ [key]: row[key], [field]: `${String(row[field]).slice(0, 10)} ${markup}` })),
    );
    return rows;
  }

  /** Saves handbook rows, a few at a time. */
  async function saveAll(request: APIRequestContext, type: HandbookType, rows: Row[]): Promise<void> {
    for (let i = 0; i < rows.length; i += 8) {
      await Promise.all(rows.slice(i, i + 8).map((row) => post(request, admin, '/api/table/element/save', { config: { type }, row })));
    }
  }

  test.beforeAll(async ({ request }) => {
    admin = `Bearer ${await token(request, 'admin')}`;
    // every screen below on (the e2e demo has them on; another spec may have switched one off)
    const sections = Object.fromEntries(
      ['controlregion', 'department', 'driver', 'stops', 'routes', 'park', 'agency', 'vehicles'].map((type) => [`handbooks.${type}`, true]),
    );
    const switched = await request.put('/api/v1/settings/modules', {
      data: { modules: { bc: true, passengers: true }, sections },
      headers: { authorization: admin },
    });
    expect(switched.status(), await switched.text()).toBe(200);
    // the demo controller reports its position: a point on both department-control maps
    const controller = `Bearer ${await token(request, 'controller')}`;
    await post(request, controller, '/api/v1/auth/coord', { ...CONTROLLER_AT, accuracy: 10 });

    [region] = await mark(request, 'controlregion', 'cd_id', 'cd_name', (rows) => rows);
    // the employees of the departments: the controllers
    await mark(request, 'driver', 'driver_id', 'last_name', (rows) => rows.filter((row) => row.td_id !== null && row.depot_id === null));
    await mark(request, 'department', 'td_id', 'td_name', (rows) => rows);
    await mark(request, 'department', 'td_id', 'td_adress', (rows) => rows);
    [stop] = await mark(request, 'stops', 'stop_id', 'stop_name', (rows) => rows);
    await mark(request, 'routes', 'route_id', 'route_long_name', (rows) => rows);
    await mark(request, 'park', 'depot_id', 'depot_name', (rows) => rows);
    await mark(request, 'agency', 'agency_id', 'title', (rows) => rows);

    const filters = (await (await request.get('/api/v1/map/filters', { headers: { authorization: admin } })).json()) as MapFilters;
    const online = (await (
      await request.get(`/api/v1/map/online?q=${filters.vehicles.map((v) => v.id).join(',')}`, { headers: { authorization: admin } })
    ).json()) as OnlineVehicle[];
    vehicle = online.find((v) => v.center !== null)!;
    [route] = filters.routes;
    await mark(request, 'vehicles', 'id', 'model', (rows) => rows.filter((row) => row.id === vehicle.id), SHORT);
  });

  test.afterAll(async ({ request }) => {
    for (const { type, key, field, rows } of marked.reverse())
      await saveAll(
        request,
        type,
        rows.map((row) => ({ [key]: row[key], [field]: row[field] })),
      );
  });

  test('the department-control map shows region and controller names as text', async ({ page }) => {
    await signIn(page, 'admin');
    await page.goto('/bc/departmentcontroll');
    const map = page.getByTestId('department-map');
    await expect(map).toBeVisible();
    await expect.poll(() => data(map, 'regionCount'), { timeout: 20_000 }).not.toBe('0');
    await expect.poll(() => data(map, 'controllerCount')).not.toBe('0');
    await hoverTooltip(page, map.locator('path.controller-position').first(), IMG);
    await hoverTooltip(page, map.locator('path.control-region').first(), IMG);
    await expectNoInjectedMarkup(page, 'department-control map');
    await map.locator('path.control-region').first().click({ force: true });
    await page.waitForTimeout(500);
    await expectNoInjectedMarkup(page, 'department-control region details');
  });

  test('the console map: a vehicle popup, a route with its stops, the depots and departments', async ({ page }) => {
    await signIn(page, 'admin');
    await page.goto('/map');
    const map = page.getByTestId('map');
    await expect(map).toBeVisible();
    await page.getByTestId('map-layers-button').click();
    const layers = page.getByTestId('map-layers');
    for (const name of ['Остановки', 'Маршруты', 'Предприятия', 'Филиалы', 'Территориальные отделы']) {
      const box = layers.getByLabel(name);
      if ((await box.count()) && !(await box.isChecked())) await box.check();
    }
    await page.keyboard.press('Escape');
    await page.getByTestId('map-search-input').fill(String(vehicle.depotNumber));
    await page.getByTestId(`map-search-vehicle-${vehicle.id}`).click();
    const popup = page.getByTestId('map-popup-vehicle');
    await expect(popup).toBeVisible();
    await expectNoInjectedMarkup(page, 'console map, vehicle popup');
    await page.locator('.leaflet-popup-close-button').click();
    await page.getByTestId('map-search-input').fill(route.name);
    await page.getByTestId(`map-search-route-${route.id}`).click();
    await expect.poll(() => data(map, 'routeStopCount')).not.toBe('0');
    await page.waitForTimeout(1000);
    await expectNoInjectedMarkup(page, 'console map with its layers');
  });

  test('the handbook map pickers of a control region and a stop', async ({ page }) => {
    await signIn(page, 'admin');
    await page.goto(`/handbooks/table/controlregion/${String(region.cd_id)}`);
    await expect(page.getByTestId('handbook-form')).toBeVisible();
    const geometry = page.getByTestId('geometry-input-geom');
    await expect(geometry.getByTestId('geometry-preview').locator('.leaflet-overlay-pane path')).toHaveCount(1);
    await geometry.getByRole('button', { name: 'Редактировать на карте' }).click();
    await expect(page.getByRole('dialog').getByTestId('geometry-editor-map').locator('.leaflet-overlay-pane path').first()).toBeVisible();
    await expectNoInjectedMarkup(page, 'polygon picker');
    await page.keyboard.press('Escape');

    await page.goto(`/handbooks/table/stops/${String(stop.stop_id)}`);
    await expect(page.getByTestId('handbook-form')).toBeVisible();
    await page.getByRole('button', { name: 'Выбрать на карте' }).click();
    await expect(page.getByRole('dialog').getByTestId('point-picker-map').locator('.handbook-point-pin')).toHaveCount(1);
    await expectNoInjectedMarkup(page, 'point picker');
  });

  test('the passenger stops map names its stops as text', async ({ page }) => {
    await signIn(page, 'admin');
    await page.goto('/passengers/stops');
    const built = page.waitForResponse((r) => r.url().includes('/api/v1/reports/passengers/stops?'));
    await page.getByTestId('report-build').click();
    expect((await built).status()).toBe(200);
    // the stops with passengers in the demo history (filled in the background after a fresh start)
    const circles = page.getByTestId('stops-map').locator('path.passenger-stop');
    await circles
      .first()
      .waitFor({ timeout: 15_000 })
      .catch(() => undefined);
    if (await circles.count()) {
      await hoverTooltip(page, circles.last(), IMG);
      await circles.last().click({ force: true });
      await expect(page.getByTestId('stop-detail-name')).toContainText(IMG);
    }
    await expectNoInjectedMarkup(page, 'passenger stops map');
  });

  test('the field app maps: department control and the city map', async ({ browser }) => {
    const context = await browser.newContext({
      viewport: { width: 390, height: 844 },
      geolocation: { latitude: 59.9343, longitude: 30.3351 },
      permissions: ['geolocation'],
    });
    const page = await context.newPage();
    try {
      await page.goto('/m/bc/departmentcontroll');
      await fillLogin(page, 'controller', ACCOUNTS.controller);
      await submitButton(page).click();
      const map = page.getByTestId('field-map');
      await expect(map).toBeVisible();
      await expect.poll(() => data(map, 'regionCount'), { timeout: 20_000 }).not.toBe('0');
      await expect.poll(() => data(map, 'controllerCount')).not.toBe('0');
      // the controller's point (posted above) and the middle of the order's region, under the pointer
      await hoverCanvasTooltip(page, map, CONTROLLER_AT.lat, CONTROLLER_AT.lon, IMG);
      const authorization = `Bearer ${await token(page.request, 'controller')}`;
      const task = (await (
        await page.request.get('/api/v1/pass/controllertask/worker', { headers: { authorization } })
      ).json()) as ControllerTask | null;
      const shown = await post<DepartmentMap>(page.request, authorization, '/api/v1/pass/departmentcontroll/map', {
        department_ids: task ? [task.department_id] : null,
      });
      const [ring] = (shown.regions[0].geojson as GeoJSON.Polygon).coordinates;
      const middle = (axis: number) => ring.slice(1).reduce((sum, corner) => sum + corner[axis], 0) / (ring.length - 1);
      await hoverCanvasTooltip(page, map, middle(1), middle(0), IMG);
      await expectNoInjectedMarkup(page, 'field app department-control map');
      await page.goto('/m/map');
      await expect(page.getByTestId('field-map')).toBeVisible();
      await page.waitForTimeout(1000);
      await expectNoInjectedMarkup(page, 'field app city map');
    } finally {
      await context.close();
    }
  });
});
