import { expect, test, type Page } from '@playwright/test';
import type { DispatchVehicleList, VehicleCard } from '../src/shared/dispatch/api';
import type { StopDetails } from '../src/shared/map';
import { ACCOUNTS, fillLogin, submitButton } from './helpers';

/**
 * The live timetable in the field app on a phone, against the running demo (the simulator drives the fleet, the
 * live timetable matches it): the phone stands at a stop a vehicle in service is about to reach; the arrivals
 * near the user list that stop first with the vehicle's arrival counting down, and the vehicle's card its
 * deviation. A controller (no code 44) has neither.
 */
test.describe.configure({ mode: 'serial' });

let target: { vehicleId: number; routeId: number; depotNumber: number; stop: StopDetails };

const shot = (page: Page, name: string) => page.screenshot({ path: `test-results/screens/mobile-arrivals-${name}.png` });

async function login(page: Page, username: 'admin' | 'controller'): Promise<void> {
  await page.goto('/m/map');
  await fillLogin(page, username, ACCOUNTS[username]);
  await submitButton(page).click();
  await expect(page.getByTestId('field-map')).toBeVisible();
}

test.beforeAll(async ({ request }) => {
  test.setTimeout(120_000);
  const login = await request.post('/api/v1/auth/login', { data: { username: 'admin', password: ACCOUNTS.admin } });
  const headers = { authorization: `Bearer ${((await login.json()) as { token: string }).token}` };
  // a vehicle in service whose next stop is a few minutes ahead
  await expect
    .poll(
      async () => {
        const vehicles = (await (await request.get('/api/v1/dispatch/vehicles', { headers })).json()) as DispatchVehicleList;
        const soon = vehicles.list.find(
          (v) =>
            v.status === 'in_service' &&
            v.run &&
            v.predictions.length > 0 &&
            Date.parse(v.predictions[0].predicted) - Date.now() > 2 * 60_000 &&
            Date.parse(v.predictions[0].predicted) - Date.now() < 30 * 60_000,
        );
        if (!soon) return false;
        const card = (await (await request.get(`/api/v1/dispatch/vehicles/${soon.vehicleId}/card`, { headers })).json()) as VehicleCard;
        const stop = (await (await request.get(`/api/v1/map/stop/${soon.predictions[0].stopId}`, { headers })).json()) as StopDetails;
        target = { vehicleId: soon.vehicleId, routeId: soon.run!.routeId, depotNumber: card.depotNumber!, stop };
        return true;
      },
      { timeout: 90_000, intervals: [2_000] },
    )
    .toBe(true);
});

test.describe('on a phone standing at the stop', () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, permissions: ['geolocation'] });

  test('the arrivals near the user list the stop first, the vehicle coming counting down, and show the stop on the map', async ({
    page,
    context,
  }) => {
    await context.setGeolocation({ latitude: target.stop.lat, longitude: target.stop.lon });
    await login(page, 'admin');
    await page.getByTestId('field-map-arrivals-button').tap();
    await expect(page).toHaveURL(/showArrivals=true/);
    const panel = page.getByTestId('near-arrivals');
    const stops = panel.getByTestId('near-stop');
    await expect(stops.first()).toHaveAttribute('data-stop-id', String(target.stop.id));
    expect(Number(await stops.first().getAttribute('data-distance'))).toBeLessThanOrEqual(5);
    expect(await stops.count()).toBeLessThanOrEqual(3);
    const arrival = stops.first().locator(`[data-testid="stop-arrival"][data-vehicle-id="${target.vehicleId}"]`).first();
    await expect(arrival).toBeVisible({ timeout: 15_000 });
    const minutes = Number(await arrival.getAttribute('data-minutes'));
    expect(minutes).toBeGreaterThanOrEqual(0);
    expect(minutes).toBeLessThanOrEqual(60);
    await expect(arrival).toHaveText(minutes === 0 ? 'прибывает' : `через ${minutes} мин`);
    await expect(stops.first().locator(`[data-testid="stop-arrivals-route"][data-route-id="${target.routeId}"]`).first()).toBeVisible();
    await shot(page, 'near');
    // the stop's name: the map on the stop with its card
    await stops.first().getByTestId('near-stop-show').tap();
    await expect(page).not.toHaveURL(/showArrivals/);
    await expect(panel).toHaveCount(0);
    const details = page.getByTestId('field-map-details');
    await expect(details).toHaveAttribute('data-kind', 'stop');
    await expect(details.getByTestId('map-popup-stop')).toContainText(target.stop.name);
    await expect(details.locator(`[data-testid="stop-arrival"][data-vehicle-id="${target.vehicleId}"]`).first()).toBeVisible();
  });

  test("the vehicle's card gives its deviation from the timetable", async ({ page }) => {
    await login(page, 'admin');
    await page.getByTestId('field-map-search-button').tap();
    const garage = page.getByTestId('vehicle-search-garage').getByRole('combobox');
    await garage.fill(String(target.depotNumber));
    await page.getByRole('option', { name: String(target.depotNumber), exact: true }).tap();
    await page.getByTestId('vehicle-search-submit').tap();
    const details = page.getByTestId('field-map-details');
    await expect(details.getByTestId('map-popup-vehicle')).toHaveAttribute('data-vehicle-id', String(target.vehicleId));
    const deviation = details.getByTestId('vehicle-dispatch');
    await expect(deviation).toHaveAttribute('data-adherence', /^(late|on_time|early)$/);
    await expect(deviation.getByTestId('vehicle-dispatch-adherence')).toHaveText(/^(Опаздывает|По расписанию|Опережает)/);
    await shot(page, 'vehicle');
  });

  test("a controller without the live timetable's right has no arrivals", async ({ page, context }) => {
    await context.setGeolocation({ latitude: target.stop.lat, longitude: target.stop.lon });
    await login(page, 'controller');
    await expect(page.getByTestId('field-map-locate')).toBeVisible();
    await expect(page.getByTestId('field-map-arrivals-button')).toHaveCount(0);
    await page.goto('/m/map?showArrivals=true');
    await expect(page.getByTestId('field-map')).toBeVisible();
    await expect(page.getByTestId('near-arrivals')).toHaveCount(0);
  });
});
