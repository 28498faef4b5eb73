import { expect, test, type Locator, type Page } from '@playwright/test';
import type { MapFilters, OnlineVehicle } from '../src/shared/map';
import { DEFAULT_MAP } from '../src/shared/constants';
import { ACCOUNTS, fillLogin, submitButton } from './helpers';

/**
 * The field app's map on a phone (field-app spec 2.3, 4, 9): moving vehicles and those near the user, a drag, a vehicle
 * found through the entity search and centred at zoom 16 with its details and video link, layers remembered per
 * mode, an address found with no internet (the product's own geocoder). The map container carries
 * data-vehicle-count, data-last-update, data-zoom, data-center, data-near-count, data-stop-count.
 */

const shot = (page: Page, name: string) => page.screenshot({ path: `test-results/screens/mobile-map-${name}.png` });
const data = (locator: Locator, key: string) => locator.evaluate((el, k) => (el as HTMLElement).dataset[k] ?? '', key);
const num = async (locator: Locator, key: string) => Number(await data(locator, key));

async function login(page: Page, path: string): Promise<void> {
  await page.goto(path);
  await fillLogin(page, 'controller', ACCOUNTS.controller);
  await submitButton(page).click();
  await expect(page.getByTestId('field-map')).toBeVisible();
}

async function apiHeaders(page: Page): Promise<Record<string, string>> {
  const response = await page.request.post('/api/v1/auth/login', { data: { username: 'controller', password: ACCOUNTS.controller } });
  return { authorization: `Bearer ${((await response.json()) as { token: string }).token}` };
}

/** The position of a vehicle on a race now (reporting a speed), or failing that of any vehicle with a position. */
async function besideMovingVehicle(page: Page): Promise<[number, number]> {
  const headers = await apiHeaders(page);
  const filters = (await (await page.request.get('/api/v1/map/mobile/filters', { headers })).json()) as MapFilters;
  const ids = filters.vehicles
    .slice(0, 500)
    .map((v) => v.id)
    .join(',');
  const online = (await (await page.request.get(`/api/v1/map/online?q=${ids}`, { headers })).json()) as OnlineVehicle[];
  const placed = online.filter((v) => v.center !== null);
  const vehicle = placed.find((v) => (v.speed ?? 0) > 0) ?? placed[0];
  expect(vehicle, 'a vehicle with a position').toBeDefined();
  const [lon, lat] = vehicle
    .center!.replace(/^POINT\(|\)$/g, '')
    .split(' ')
    .map(Number);
  return [lat, lon];
}

test.describe('the field map on a phone', () => {
  test.use({
    viewport: { width: 390, height: 844 },
    isMobile: true,
    hasTouch: true,
    geolocation: { latitude: DEFAULT_MAP.lat, longitude: DEFAULT_MAP.lon },
    permissions: ['geolocation'],
  });

  /** From the opening zoom 16 out to the whole small demo city, its vehicles drawn. */
  async function zoomOutToCity(page: Page, map: Locator): Promise<void> {
    await expect.poll(() => data(map, 'zoom')).toBe('16');
    // a tap during Leaflet's zoom animation is dropped (as on a phone): one step at a time
    for (const zoom of ['15', '14', '13']) {
      await page.getByTestId('field-map-zoom-out').tap();
      await expect.poll(() => data(map, 'zoom')).toBe(zoom);
    }
    await expect.poll(() => num(map, 'vehicleCount'), { timeout: 20_000 }).toBeGreaterThan(0);
  }

  test('shows the fleet moving, and marks the vehicles within 2 km of the user', async ({ page, context }) => {
    // the user stands beside a moving vehicle: at night few run, and those near the city centre may be none
    const user = await besideMovingVehicle(page);
    await context.setGeolocation({ latitude: user[0], longitude: user[1] });
    await login(page, '/m/map');
    const map = page.getByTestId('field-map');
    await zoomOutToCity(page, map);
    const first = await data(map, 'lastUpdate');
    await expect.poll(() => data(map, 'lastUpdate'), { timeout: 15_000 }).not.toBe(first);
    await expect.poll(() => data(map, 'userPosition')).toBe(`${user[0]},${user[1]}`);
    // back to the user: the vehicle beside them is marked
    await page.getByTestId('field-map-locate').tap();
    await expect.poll(() => data(map, 'zoom')).toBe('16');
    await expect.poll(() => num(map, 'nearCount'), { timeout: 15_000 }).toBeGreaterThan(0);
    await shot(page, 'moving');
  });

  test('a finger drags the map: the live vehicles wait while it moves and come when it lifts', async ({ page }) => {
    await login(page, '/m/map');
    const map = page.getByTestId('field-map');
    await zoomOutToCity(page, map);
    const centre = await data(map, 'center');
    const canvas = page.getByTestId('map-vehicles-canvas');
    const blank = await canvas.evaluate((element) =>
      Object.assign(document.createElement('canvas'), {
        width: (element as HTMLCanvasElement).width,
        height: (element as HTMLCanvasElement).height,
      }).toDataURL(),
    );

    // a real touch (CDP): Leaflet's own drag, a move every few milliseconds for a few seconds
    const cdp = await page.context().newCDPSession(page);
    const box = (await map.boundingBox())!;
    const [x0, y0] = [box.x + box.width / 2, box.y + box.height / 3];
    const touch = (type: 'touchStart' | 'touchMove' | 'touchEnd', x = x0, y = y0) =>
      cdp.send('Input.dispatchTouchEvent', { type, touchPoints: type === 'touchEnd' ? [] : [{ x, y, id: 1 }] });
    // the pictures the map shows (data-last-update), as they change
    await map.evaluate((element) => {
      const shown: string[] = [];
      (window as unknown as { shownPictures: string[] }).shownPictures = shown;
      new MutationObserver(() => shown.push((element as HTMLElement).dataset.lastUpdate ?? '')).observe(element, {
        attributes: true,
        attributeFilter: ['data-last-update'],
      });
    });
    const shownCount = () => page.evaluate(() => (window as unknown as { shownPictures: string[] }).shownPictures.length);
    await touch('touchStart');
    let before = 0;
    for (let i = 1; i <= 150; i++) {
      await touch('touchMove', x0 + 100 * Math.sin(i / 15), y0 + i);
      if (i === 10) before = await shownCount(); // the drag has begun
      await page.waitForTimeout(16);
    }
    // no new picture while the finger moved, new ones once it lifted
    expect(await shownCount()).toBe(before);
    const last = await data(map, 'lastUpdate');
    await touch('touchEnd');
    await expect.poll(() => data(map, 'lastUpdate'), { timeout: 15_000 }).not.toBe(last);
    await expect.poll(() => data(map, 'center')).not.toBe(centre);
    expect(await num(map, 'vehicleCount')).toBeGreaterThan(0);
    expect(await canvas.evaluate((element) => (element as HTMLCanvasElement).toDataURL())).not.toBe(blank);
    await shot(page, 'dragged');
  });

  test('finds a vehicle by garage number, fills its route, branch and type, centres on it at zoom 16 and links to its video', async ({
    page,
  }) => {
    const headers = await apiHeaders(page);
    const filters = (await (await page.request.get('/api/v1/map/mobile/filters', { headers })).json()) as MapFilters;
    let target: { vehicle: MapFilters['vehicles'][number]; online: OnlineVehicle } | undefined;
    for (const vehicle of filters.vehicles.filter((v) => v.route_id !== null)) {
      const online = (await (await page.request.get(`/api/v1/map/online/${vehicle.id}`, { headers })).json()) as OnlineVehicle;
      if (online.center) {
        target = { vehicle, online };
        break;
      }
    }
    expect(target, 'a vehicle on a route with a position').toBeDefined();
    const { vehicle } = target!;
    const branch = filters.branches.find((b) => b.id === vehicle.Depot_id)!;
    const route = filters.routes.find((r) => r.id === vehicle.route_id)!;

    await login(page, '/m/map');
    await page.getByTestId('field-map-search-button').tap();
    await expect(page).toHaveURL(/showEntitiesSearchPopup=true/);
    const garage = page.getByTestId('vehicle-search-garage').getByRole('combobox');
    await garage.fill(String(vehicle.depotNumber));
    await page.getByRole('option', { name: String(vehicle.depotNumber), exact: true }).tap();
    await expect(page.getByTestId('vehicle-search-branch').getByRole('combobox')).toHaveValue(branch.name);
    await expect(page.getByTestId('vehicle-search-route').getByRole('combobox')).toHaveValue(route.name);
    await expect(page.getByTestId('vehicle-search-type').getByRole('combobox')).not.toHaveValue('');
    await expect(page.getByTestId('vehicle-search-plate').getByRole('combobox')).toHaveValue(vehicle.gosNomer ?? '');
    await shot(page, 'vehicle-search');
    await page.getByTestId('vehicle-search-submit').tap();
    await expect(page).not.toHaveURL(/showEntitiesSearchPopup/);

    const map = page.getByTestId('field-map');
    await expect.poll(() => data(map, 'zoom')).toBe('16');
    const details = page.getByTestId('field-map-details');
    await expect(details).toHaveAttribute('data-kind', 'vehicle');
    await expect(details.getByTestId('map-popup-vehicle')).toHaveAttribute('data-vehicle-id', String(vehicle.id));
    await expect(details).toContainText(String(vehicle.depotNumber));
    await expect(details).toContainText(route.name);
    // the map stands on the vehicle (it moves on; within a few hundred metres of where it was asked)
    const online = (await (await page.request.get(`/api/v1/map/online/${vehicle.id}`, { headers })).json()) as OnlineVehicle;
    const [lon, lat] = online
      .center!.replace(/^POINT\(|\)$/g, '')
      .split(' ')
      .map(Number);
    await expect
      .poll(async () => {
        const [cLat, cLon] = (await data(map, 'center')).split(',').map(Number);
        return Math.abs(cLat - lat) < 0.01 && Math.abs(cLon - lon) < 0.02;
      })
      .toBe(true);
    await expect(details.getByTestId('map-popup-video')).toHaveAttribute('href', `/m/video/${vehicle.id}`);
    await shot(page, 'vehicle-details');
    await details.getByTestId('field-map-details-close').tap();
    await expect(details).toHaveCount(0);
  });

  test('remembers layers after a reload, per mode', async ({ page }) => {
    await login(page, '/m/map?showLayers=true');
    const popup = page.getByTestId('field-layers');
    const layer = (name: string) => popup.locator(`input[data-layer="${name}"]`);
    await expect(layer('stops')).toBeChecked();
    await expect(layer('routes')).not.toBeChecked();
    await expect(layer('agencies')).not.toBeChecked();
    await layer('stops').tap();
    await layer('agencies').tap();
    await expect(layer('stops')).not.toBeChecked();
    await page.reload();
    await expect(layer('stops')).not.toBeChecked();
    await expect(layer('agencies')).toBeChecked();
    await shot(page, 'layers');

    // department control: its own defaults and memory, no agencies layer, no entity or address search
    await page.goto('/m/bc/departmentcontroll?showLayers=true');
    await expect(page.getByTestId('field-map-screen')).toHaveAttribute('data-mode', 'departmentControl');
    await expect(layer('regions')).toBeChecked();
    await expect(layer('departments')).not.toBeChecked();
    await expect(layer('stops')).not.toBeChecked();
    await expect(layer('agencies')).toHaveCount(0);
    await expect(page.getByTestId('field-map-search-button')).toHaveCount(0);
    await expect(page.getByTestId('address-search')).toHaveCount(0);
    await expect.poll(() => num(page.getByTestId('field-map'), 'regionCount')).toBeGreaterThan(0);
    await layer('departments').tap();
    await page.reload();
    await expect(layer('departments')).toBeChecked();

    // current region: stops and routes on by default
    await page.goto('/m/bc/currentregion?showLayers=true');
    await expect(layer('stops')).toBeChecked();
    await expect(layer('routes')).toBeChecked();
    await expect(layer('departments')).not.toBeChecked();

    // the default mode kept its own choice
    await page.goto('/m/map?showLayers=true');
    await expect(layer('stops')).not.toBeChecked();
    await expect(layer('agencies')).toBeChecked();
    await expect(layer('departments')).not.toBeChecked();
    await page.getByTestId('field-map-layers-button').tap();
    await expect(popup).toHaveCount(0);
    await expect(page).not.toHaveURL(/showLayers/);
  });

  test('finds an address with no internet: one query a second after typing, the city in front, the own geocoder answering', async ({
    page,
    context,
  }) => {
    const outside: string[] = [];
    await context.route(
      (url) => !['127.0.0.1', 'localhost'].includes(url.hostname),
      (route) => {
        outside.push(route.request().url());
        return route.abort('internetdisconnected');
      },
    );
    await login(page, '/m/map');
    const queries: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/api/v1/geocoder/search')) queries.push(new URL(request.url()).searchParams.get('q') ?? '');
    });
    const box = page.getByTestId('address-search-input');
    await box.pressSequentially('Невский 12', { delay: 80 });
    await expect(page.getByTestId('address-search-result').first()).toContainText('Невский проспект, 12', { timeout: 5_000 });
    expect(queries).toEqual(['Санкт-Петербург, Невский 12']);
    expect(await page.getByTestId('address-search-result').count()).toBeLessThanOrEqual(5);
    await shot(page, 'address');
    await page.getByTestId('address-search-result').first().tap();
    const map = page.getByTestId('field-map');
    await expect.poll(() => data(map, 'zoom')).toBe('17');
    await expect(map.locator('.leaflet-marker-icon[title="Невский проспект, 12"]')).toHaveCount(1);
    expect(outside.filter((url) => !url.startsWith('data:'))).toEqual([]);
  });
});
