import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import type { LoginResponse } from '../src/shared/api';
import { demoCoverage, demoStoppedAt, piecesSeconds } from '../src/server/video/demoArchive';
import { ACCOUNTS, signIn } from './helpers';

/**
 * On-board video in Chromium: the camera grid really plays, a failing camera retries and turns
 * red, an archive request goes from downloading to performed, is played and then shown as viewed, one's
 * own request is deleted, and a user without code 25 is refused.
 */

const MIN = 60_000;

async function token(request: APIRequestContext, username: keyof typeof ACCOUNTS): Promise<string> {
  const response = await request.post('/api/v1/auth/login', { data: { username, password: ACCOUNTS[username] } });
  return ((await response.json()) as LoginResponse).token;
}

interface Vehicle {
  vehicleId: number;
  dvrId: number;
  online: boolean;
  cameras: { index: number }[];
}

/** A vehicle on the road (the simulator drives it) whose demo recorder holds the last 10 minutes on camera 1. */
async function onlineVehicle(request: APIRequestContext, skip: number[] = []): Promise<Vehicle> {
  const authorization = `Bearer ${await token(request, 'operator')}`;
  let found: Vehicle | undefined;
  await expect
    .poll(
      async () => {
        const response = await request.get('/api/v1/video/vehicles?recordCount=200', { headers: { authorization } });
        const { list } = (await response.json()) as { list: Vehicle[] };
        const now = Date.now();
        found = list.find(
          (v) =>
            v.online &&
            !skip.includes(v.vehicleId) &&
            v.cameras.length >= 2 &&
            demoStoppedAt(v.dvrId, now) === null &&
            piecesSeconds(demoCoverage(v.dvrId, 1, now - 10 * MIN, now, now, 72)) >= 598,
        );
        return found !== undefined;
      },
      { timeout: 90_000, intervals: [1000] },
    )
    .toBe(true);
  return found!;
}

/** The currentTime of every tile's video element. */
const times = (page: Page) =>
  page.locator('[data-testid=video-tile] video').evaluateAll((videos) => videos.map((v) => (v as HTMLVideoElement).currentTime));

test.describe.configure({ mode: 'serial' });

test('a vehicle’s camera grid plays: every tile’s video advances', async ({ page, request }) => {
  test.setTimeout(120_000);
  const vehicle = await onlineVehicle(request);
  await signIn(page, 'operator');
  await page.goto(`/video/online?vehicle=${vehicle.vehicleId}&layout=4`);
  const tiles = page.getByTestId('video-tile');
  await expect(tiles).toHaveCount(Math.min(4, vehicle.cameras.length), { timeout: 30_000 });
  await expect.poll(async () => (await times(page)).every((t) => t > 0.5), { timeout: 45_000 }).toBe(true);
  const first = await times(page);
  await page.waitForTimeout(2500);
  const later = await times(page);
  expect(later.every((t, i) => t > first[i])).toBe(true);
  await expect(tiles.first().getByTestId('video-state')).toHaveAttribute('data-state', 'playing');
  await expect(tiles.first().getByTestId('video-state')).toHaveText('В эфире');

  // The grid switches to 1 tile, and a tile opens full size.
  await page.getByTestId('video-layout-1').click();
  await expect(tiles).toHaveCount(1);
  await tiles.first().getByTestId('video-full-size').click();
  await expect(page).toHaveURL(new RegExp(`/video/online/live/${vehicle.vehicleId}/1$`));
  await expect
    .poll(
      () =>
        page
          .getByTestId('video-live')
          .locator('video')
          .evaluate((v) => (v as HTMLVideoElement).currentTime),
      { timeout: 30_000 },
    )
    .toBeGreaterThan(0.5);
});

test('a camera that fails shows its retries, then the red state, while the others play', async ({ page, request }) => {
  test.setTimeout(150_000);
  const vehicle = await onlineVehicle(request);
  // Camera 2's stream answers something that is not a playlist: a fatal error on every attempt.
  await page.route(
    (url) => /\/api\/v1\/video\/stream\/l-\d+-\d+-2-/.test(url.pathname) && url.pathname.endsWith('/index.m3u8'),
    (route) => route.fulfill({ status: 200, contentType: 'application/vnd.apple.mpegurl', body: 'no playlist here' }),
  );
  await signIn(page, 'operator');
  await page.goto(`/video/online?vehicle=${vehicle.vehicleId}&layout=4`);
  const failing = page.locator('[data-testid=video-tile][data-camera="2"]').getByTestId('video-state');
  await expect(failing).toHaveAttribute('data-state', 'retrying', { timeout: 20_000 });
  await expect(failing).toHaveText(/Повтор \d+ из 40/);
  await expect(failing).toHaveAttribute('data-state', 'failed', { timeout: 90_000 });
  await expect(failing).toHaveText('Нет сигнала');
  await expect(page.locator('[data-testid=video-tile][data-camera="2"]')).toContainText('Нет сигнала');
  await expect(page.locator('[data-testid=video-tile][data-camera="1"]').getByTestId('video-state')).toHaveAttribute(
    'data-state',
    'playing',
  );
});

test('a live tile recovers after its stream address expires: the retry asks for a fresh address', async ({ page, request }) => {
  test.setTimeout(300_000);
  const admin = { authorization: `Bearer ${await token(request, 'admin')}` };
  const lifetime = async (seconds: number) =>
    expect((await request.put('/api/v1/settings/video', { headers: admin, data: { video: { streamTtlSeconds: seconds } } })).status()).toBe(
      200,
    );
  await lifetime(12);
  try {
    const vehicle = await onlineVehicle(request);
    // The addresses camera 1's player was given (each names its own signed token).
    const addresses = new Set<string>();
    page.on('response', async (response) => {
      if (!/\/api\/v1\/video\/online\/\d+\/1$/.test(new URL(response.url()).pathname) || !response.ok()) return;
      addresses.add(((await response.json()) as { playUrl: string }).playUrl);
    });
    await signIn(page, 'operator');
    await page.goto(`/video/online?vehicle=${vehicle.vehicleId}&layout=1`);
    const state = page.locator('[data-testid=video-tile][data-camera="1"]').getByTestId('video-state');
    await expect(state).toHaveAttribute('data-state', 'playing', { timeout: 90_000 });
    // The token expires: the stream fails, the player asks again, and the tile plays on a new address.
    await expect(state).toHaveAttribute('data-state', 'retrying', { timeout: 60_000 });
    await expect.poll(() => addresses.size, { timeout: 60_000 }).toBeGreaterThan(1);
    await expect(state).toHaveAttribute('data-state', 'playing', { timeout: 60_000 });
    const video = page.locator('[data-testid=video-tile][data-camera="1"] video');
    const before = await video.evaluate((v) => (v as HTMLVideoElement).currentTime);
    await expect.poll(() => video.evaluate((v) => (v as HTMLVideoElement).currentTime), { timeout: 15_000 }).toBeGreaterThan(before);
  } finally {
    await lifetime(6 * 3600);
  }
});

test('an archive request goes through downloading to performed, is played, then shows as viewed', async ({ page, request }) => {
  test.setTimeout(180_000);
  const vehicle = await onlineVehicle(request);
  await signIn(page, 'operator');
  await page.goto(`/video/requests/create?vehicle=${vehicle.vehicleId}`);
  await expect(page.getByTestId('video-vehicle-heading')).toBeVisible({ timeout: 30_000 });
  // Camera 1 only, the last 5 minutes.
  for (const camera of vehicle.cameras.filter((c) => c.index !== 1)) await page.getByLabel(`camera-${camera.index}`).uncheck();
  await page.getByTestId('video-last5').click();
  await page.getByTestId('video-create-submit').click();
  await expect(page).toHaveURL(/\/video\/myrequests/);
  const created = await page.getByText(/Запрос № \d+ создан/).textContent();
  const id = Number(/№ (\d+)/.exec(created ?? '')![1]);
  const status = page.getByTestId(`video-request-actions-${id}`).locator('xpath=ancestor::tr').getByTestId('video-status');
  // The list refreshes by itself: downloading with its percentage, then performed.
  await expect(status).toHaveText(/Загрузка \d+%/, { timeout: 60_000 });
  await expect(status).toHaveAttribute('data-status', '6', { timeout: 60_000 });
  await expect(status).toHaveText('Выполнен');

  await page.getByTestId(`video-request-actions-${id}`).getByTestId('video-play').click();
  await expect(page).toHaveURL(new RegExp(`/video/archive\\?play=${id}`));
  const video = page.getByTestId('video-archive-video').locator('video');
  await expect.poll(() => video.evaluate((v) => (v as HTMLVideoElement).currentTime), { timeout: 45_000 }).toBeGreaterThan(1);
  await expect(page.getByTestId('video-archive-clock')).toHaveText(/Время записи: \d\d\.\d\d\.\d{4} \d\d:\d\d:\d\d/);

  await page.goto('/video/myrequests');
  await expect(page.getByTestId(`video-request-actions-${id}`).locator('xpath=ancestor::tr').getByTestId('video-status')).toHaveText(
    'Просмотрен',
  );
});

test('a user deletes their own request', async ({ page }) => {
  await signIn(page, 'operator');
  await page.goto('/video/myrequests');
  const actions = page
    .locator('[data-testid^=video-request-actions-]')
    .filter({ has: page.getByTestId('video-delete') })
    .first();
  const testId = await actions.getAttribute('data-testid');
  await actions.getByTestId('video-delete').click();
  await page.getByRole('button', { name: 'Да' }).click();
  await expect(page.getByText('Запрос удалён')).toBeVisible();
  await expect(page.getByTestId(testId!)).toHaveCount(0, { timeout: 15_000 });
});

test('a user without code 25 is refused the video screens and their API', async ({ page, request }) => {
  await signIn(page, 'controller');
  await page.goto('/video/online');
  await expect(page).toHaveURL(/\/access-denied$/);
  await page.goto('/video/myrequests');
  await expect(page).toHaveURL(/\/access-denied$/);
  const authorization = `Bearer ${await token(request, 'controller')}`;
  expect((await request.get('/api/v1/reports/video/requests', { headers: { authorization } })).status()).toBe(403);
  expect((await request.post('/api/v1/video/empty', { headers: { authorization }, data: { vehicleId: 1 } })).status()).toBe(403);
});

test('a vehicle without a recorder is answered dvr_or_camera_not_found, shown translated', async ({ page, request }) => {
  const authorization = `Bearer ${await token(request, 'operator')}`;
  const { vehicles } = (await (await request.get('/api/v1/map/filters', { headers: { authorization } })).json()) as {
    vehicles: { id: number }[];
  };
  const { list } = (await (await request.get('/api/v1/video/vehicles?recordCount=200', { headers: { authorization } })).json()) as {
    list: Vehicle[];
  };
  const bare = vehicles.find((v) => !list.some((w) => w.vehicleId === v.id))!;
  await signIn(page, 'operator');
  await page.goto(`/video/online?vehicle=${bare.id}`);
  await expect(page.getByText('На транспортном средстве не установлены камеры или видеорегистратор')).toBeVisible();
});
