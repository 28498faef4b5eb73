import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import type { LoginResponse } from '../src/shared/api';
import { demoCoverage, demoStoppedAt, piecesSeconds } from '../src/server/video/demoArchive';
import { ACCOUNTS, fillLogin, submitButton, type Account } from './helpers';

/**
 * The field app beyond its map (shell part) in Chromium at a phone's size with touch: a vehicle's
 * video plays, a handbook is filtered through its filter panel and a record shows its map, a read-only user
 * finds no write action, the app installs (manifest, service worker) and opens offline, and /no-connection's
 * refresh.
 */
test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
test.describe.configure({ mode: 'serial' });

const MIN = 60_000;

async function mobileLogin(page: Page, username: Account, path = '/m/'): Promise<void> {
  await page.goto(path);
  await fillLogin(page, username, ACCOUNTS[username]);
  await submitButton(page).click();
  await expect(page.getByTestId('mobile-app-bar')).toBeVisible();
}

async function token(request: APIRequestContext, username: Account): Promise<string> {
  const response = await request.post('/api/v1/auth/login', { data: { username, password: ACCOUNTS[username] } });
  return ((await response.json()) as LoginResponse).token;
}

interface Vehicle {
  vehicleId: number;
  dvrId: number;
  depotNumber: number;
  online: boolean;
  cameras: { index: number }[];
}

/** A vehicle on the road whose demo recorder holds the last 10 minutes on camera 1 (it plays live). */
async function playableVehicle(request: APIRequestContext): Promise<Vehicle> {
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

const currentTimes = (page: Page, selector: string) =>
  page.locator(selector).evaluateAll((videos) => videos.map((v) => (v as HTMLVideoElement).currentTime));

test('a vehicle’s video plays from /m/video/{vehicle}: the grid, the info panel, one camera with mute', async ({ page, request }) => {
  test.setTimeout(150_000);
  const vehicle = await playableVehicle(request);
  await mobileLogin(page, 'operator', '/m/video');
  await page.getByTestId('video-search').fill(String(vehicle.depotNumber));
  await page.getByTestId(`video-vehicle-${vehicle.vehicleId}`).tap();
  await expect(page).toHaveURL(new RegExp(`/m/video/${vehicle.vehicleId}$`));

  // the grid tab is numbered by the camera count and every camera plays
  await expect(page.getByTestId('video-tab-grid')).toContainText(`(${vehicle.cameras.length})`);
  await expect(page.getByTestId('video-tile')).toHaveCount(vehicle.cameras.length);
  await expect
    .poll(async () => (await currentTimes(page, '[data-testid=video-tile] video'))[0] ?? 0, { timeout: 45_000 })
    .toBeGreaterThan(0.5);
  await expect(page.getByTestId('video-tile').first().getByTestId('video-state')).toHaveAttribute('data-state', 'playing');

  // the info toggle opens the panel: type, model, plate, garage number, route, driver, branch
  await expect(page.getByTestId('video-info-panel')).toHaveCount(0);
  await page.getByTestId('video-info-toggle').tap();
  const panel = page.getByTestId('video-info-panel');
  await expect(panel).toBeVisible();
  await expect(panel.getByTestId('video-info-garage')).toHaveText(String(vehicle.depotNumber));
  for (const label of ['Вид транспорта', 'Модель', 'Госномер', 'Гаражный номер', 'Маршрут', 'Водитель', 'Филиал'])
    await expect(panel).toContainText(label);
  await expect(panel.getByTestId('video-info-branch')).not.toHaveText('—');

  // one camera: it plays, with mute and fullscreen
  await page.getByTestId('video-tab-single').tap();
  await expect(page).toHaveURL(/tab=single/);
  await expect
    .poll(async () => (await currentTimes(page, '[data-testid=video-single] video'))[0] ?? 0, { timeout: 45_000 })
    .toBeGreaterThan(0.5);
  const mute = page.getByTestId('video-mute');
  await expect(mute).toHaveAttribute('data-muted', 'true');
  expect(await page.locator('[data-testid=video-single] video').evaluate((v) => (v as HTMLVideoElement).muted)).toBe(true);
  await mute.tap();
  await expect(mute).toHaveAttribute('data-muted', 'false');
  expect(await page.locator('[data-testid=video-single] video').evaluate((v) => (v as HTMLVideoElement).muted)).toBe(false);
  await expect(page.getByTestId('video-fullscreen')).toBeVisible();
  await page.screenshot({ path: 'test-results/screens/mobile-field-video.png' });

  // the back button returns to the grid
  await page.goBack();
  await expect(page.getByTestId('video-grid')).toBeVisible();
});

test('a handbook filtered through the filter panel, then a record with its map', async ({ page }) => {
  await mobileLogin(page, 'viewer', '/m/handbooks');
  await expect(page.getByTestId('handbook-index')).toBeVisible();
  await page.getByTestId('handbook-stops').tap();
  const rows = page.getByTestId('handbook-row');
  // stops: 20 a page (field-app spec 9)
  await expect(rows).toHaveCount(20);

  // a stop name to look for: a word of the first row's name
  const name = (await rows.first().locator('td').nth(1).innerText()).trim();
  const word = name.split(/\s+/).find((part) => part.length >= 4) ?? name;
  await page.getByTestId('filter-stop_name').tap();
  const panel = page.getByTestId('filter-panel');
  await expect(panel).toBeVisible();
  await expect(page.getByTestId('filter-option').first()).toBeVisible();
  await page.getByTestId('filter-search').fill(word);
  await expect
    .poll(async () =>
      (await page.getByTestId('filter-option').allInnerTexts()).every((text) => text.toLowerCase().includes(word.toLowerCase())),
    )
    .toBe(true);
  // select all off, then one value checked
  await page.getByTestId('filter-select-all').click();
  await expect(page.getByTestId('filter-apply')).toBeDisabled();
  await page.getByTestId('filter-option').filter({ hasText: name }).first().tap();
  await page.getByTestId('filter-apply').tap();
  await expect(panel).toHaveCount(0);
  await expect(page.getByTestId('filter-stop_name')).toHaveAttribute('data-active', 'true');
  // the filtered page replaces the first one when it comes
  await expect
    .poll(async () => {
      const texts = await rows.allInnerTexts();
      return texts.length > 0 && texts.every((text) => text.includes(name));
    })
    .toBe(true);

  // a search with nothing in it: "Nothing found." in the checklist; cancel leaves the filter as it was
  await page.getByTestId('filter-stop_name').tap();
  await page.getByTestId('filter-search').fill('ъъъъъъ');
  await expect(page.getByTestId('filter-nothing')).toHaveText('Ничего не найдено.');
  await page.getByTestId('filter-cancel').tap();
  await expect(page.getByTestId('filter-stop_name')).toHaveAttribute('data-active', 'true');

  // the record: its fields and its place on the map
  await rows.first().tap();
  await expect(page).toHaveURL(/\/m\/handbooks\/stops\/\d+$/);
  await expect(page.getByTestId('handbook-record')).toBeVisible();
  await expect(page.getByTestId('field-stop_name')).toContainText(name);
  await expect(page.getByTestId('handbook-record-map')).toBeVisible();
  await expect(page.locator('[data-testid=handbook-record-map] path.leaflet-interactive')).toHaveCount(1);
  await page.screenshot({ path: 'test-results/screens/mobile-field-handbook-record.png' });

  // back: the list keeps its filter; reset filters brings every stop back
  await page.goBack();
  await expect(page.getByTestId('filter-stop_name')).toHaveAttribute('data-active', 'true');
  await page.getByTestId('handbook-reset-filters').tap();
  await expect(rows).toHaveCount(20);

  // a record's link leads to the linked record (a vehicle's branch)
  await page.goto('/m/handbooks/vehicles');
  await expect(rows).toHaveCount(10);
  await rows.first().tap();
  await page.getByTestId('link-depot_id').tap();
  await expect(page).toHaveURL(/\/m\/handbooks\/park\/\d+$/);
  await expect(page.getByTestId('handbook-record')).toHaveAttribute('data-type', 'park');

  // an empty result says so (a filter kept from earlier that matches nothing now)
  await page.evaluate(() =>
    sessionStorage.setItem(
      'field.handbook.routes',
      JSON.stringify({ page: 0, perPage: 10, filters: { route_short_name: ['нет такого'] } }),
    ),
  );
  await page.goto('/m/handbooks/routes');
  await expect(page.getByTestId('handbook-empty')).toHaveText('По вашему запросу ничего не найдено');
  await expect(rows).toHaveCount(0);
});

test('a route record lists its trips and draws them', async ({ page }) => {
  await mobileLogin(page, 'operator', '/m/handbooks/routes');
  await page.getByTestId('handbook-row').first().tap();
  await expect(page.getByTestId('route-trips')).toBeVisible();
  await expect(page.getByTestId('route-trip').first()).toBeVisible();
  await expect(page.getByTestId('handbook-record-map')).toBeVisible();
});

test('a read-only user finds no write action anywhere', async ({ page }) => {
  const writes: string[] = [];
  page.on('request', (request) => {
    const path = new URL(request.url()).pathname;
    if (!path.startsWith('/api/')) return;
    // reads that travel as POST: the generic query, the live view's request id, the session
    const reads = ['/api/v1/handbooks/query', '/api/v1/video/empty', '/api/v1/auth/login', '/api/v1/auth/coord'];
    if (request.method() !== 'GET' && !reads.includes(path)) writes.push(`${request.method()} ${path}`);
  });
  await mobileLogin(page, 'viewer');
  const writeWords = /создать|добавить|удалить|сохранить|изменить|редактировать|импорт|загрузить/i;
  const check = async (where: string) => {
    const buttons = await page.locator('button, a[role=button], [role=menuitem]').allInnerTexts();
    expect(
      buttons.filter((text) => writeWords.test(text)),
      where,
    ).toEqual([]);
  };
  await page.goto('/m/?navState=open');
  await expect(page.getByTestId('mobile-menu')).toBeVisible();
  const paths = await page
    .getByTestId('mobile-menu-entry')
    .evaluateAll((links) => links.map((link) => link.getAttribute('data-path') ?? ''));
  for (const path of paths.filter((p) => p !== '/map')) {
    await page.goto(`/m${path}`);
    await expect(page.getByTestId('mobile-app-bar')).toBeVisible();
    await page.waitForLoadState('networkidle');
    await check(path);
  }
  await page.goto('/m/handbooks');
  for (const type of await page
    .locator('[data-testid^=handbook-]')
    .evaluateAll((links) =>
      links.map((link) => link.getAttribute('data-testid')!.slice('handbook-'.length)).filter((t) => t !== 'index'),
    )) {
    await page.goto(`/m/handbooks/${type}`);
    await expect(page.getByTestId('handbook-list')).toBeVisible();
    await page.waitForLoadState('networkidle');
    await check(`/handbooks/${type}`);
    const row = page.getByTestId('handbook-row').first();
    if (await row.count()) {
      await row.tap();
      await expect(page.getByTestId('handbook-record')).toBeVisible();
      await check(`/handbooks/${type}/…`);
    }
  }
  expect(writes).toEqual([]);
});

test('the app installs (manifest and service worker) and its shell opens offline', async ({ page, context }) => {
  test.setTimeout(90_000);
  await mobileLogin(page, 'viewer', '/m/handbooks/stops');
  await expect(page.getByTestId('handbook-row')).toHaveCount(20);

  const href = await page.locator('link[rel=manifest]').getAttribute('href');
  expect(href).toBe('/m/manifest.webmanifest');
  const manifest = (await (await page.request.get(href!)).json()) as {
    name: string;
    start_url: string;
    scope: string;
    display: string;
    icons: { sizes: string; type: string }[];
  };
  expect(manifest).toMatchObject({ start_url: '/m/', scope: '/m/', display: 'standalone' });
  expect(manifest.icons.map((icon) => icon.sizes)).toEqual(expect.arrayContaining(['192x192', '512x512']));
  for (const icon of manifest.icons) expect((await page.request.get((icon as unknown as { src: string }).src)).status()).toBe(200);

  // the worker is registered for /m/ and active once its precache is in
  const scope = await page.evaluate(async () => (await navigator.serviceWorker.ready).scope);
  expect(new URL(scope).pathname).toBe('/m/');
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null), { timeout: 30_000 }).toBe(true);

  // offline, a cold reload: the shell, the last-seen handbook page (the kept copy says so), and a data screen that needs the connection
  await context.setOffline(true);
  await page.reload();
  await expect(page.getByTestId('mobile-app-bar')).toBeVisible();
  await expect(page.getByTestId('handbook-row')).toHaveCount(20);
  await expect(page.getByTestId('handbook-saved-copy')).toContainText('Нет связи');
  await page.goto('/m/handbooks');
  await expect(page.getByTestId('handbook-index')).toBeVisible();
  await page.goto('/m/video');
  await expect(page.getByTestId('needs-connection')).toContainText('Нужна связь');
  await page.goto('/m/about');
  await expect(page.getByTestId('mobile-app-bar')).toBeVisible();
  await page.screenshot({ path: 'test-results/screens/mobile-field-offline.png' });
  await context.setOffline(false);
});

test('/no-connection: refresh stays while offline and goes to the main page once the server answers', async ({ page, context }) => {
  await mobileLogin(page, 'viewer');
  await page.goto('/m/no-connection');
  await expect(page.getByTestId('no-connection')).toContainText('Нет соединения');
  await context.setOffline(true);
  await page.getByTestId('no-connection-refresh').tap();
  await expect(page.getByTestId('no-connection')).toBeVisible();
  await expect(page).toHaveURL(/\/m\/no-connection$/);
  await context.setOffline(false);
  const current = page.waitForRequest((request) => new URL(request.url()).pathname.startsWith('/api/v1/auth/current'));
  await page.getByTestId('no-connection-refresh').tap();
  await current;
  await expect(page).not.toHaveURL(/no-connection/);
  await expect(page.getByTestId('mobile-app-bar')).toBeVisible();
});

/** The outbox of ticket control (IndexedDB 'field-app', Dexie): its items, read or written without the app. */
const outboxItems = (page: Page) =>
  page.evaluate(
    () =>
      new Promise<number>((resolve, reject) => {
        const open = indexedDB.open('field-app');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const request = open.result.transaction('outbox').objectStore('outbox').count();
          request.onsuccess = () => {
            resolve(request.result);
            open.result.close();
          };
        };
      }),
  );

test('ticket control opens after a cold offline reload, its outbox kept', async ({ page, context }) => {
  test.setTimeout(90_000);
  await mobileLogin(page, 'controller', '/m/bc');
  await expect(page.getByTestId('bc-home')).toBeVisible();
  const line = await page.getByTestId('bc-task-line').innerText();
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null), { timeout: 30_000 }).toBe(true);
  const before = await outboxItems(page);

  await context.setOffline(true);
  // an item waiting to be sent (a status no server will see: it is taken out again before the connection returns)
  await page.evaluate(
    () =>
      new Promise<void>((resolve, reject) => {
        const open = indexedDB.open('field-app');
        open.onsuccess = () => {
          const tx = open.result.transaction('outbox', 'readwrite');
          tx.objectStore('outbox').add({
            userId: 0,
            taskId: -1,
            key: 'e2e-offline',
            createdAt: Date.now(),
            kind: 'status',
            status: 'work',
          });
          tx.oncomplete = () => {
            open.result.close();
            resolve();
          };
          tx.onerror = () => reject(tx.error);
        };
      }),
  );
  await page.reload();
  await expect(page.getByTestId('mobile-app-bar')).toBeVisible();
  await expect(page.getByTestId('bc-home')).toBeVisible();
  await expect(page.getByTestId('bc-task-line')).toHaveText(line);
  expect(await outboxItems(page)).toBe(before + 1);
  // ticket control's maps need the connection and say so
  await page.goto('/m/bc/departmentcontroll');
  await expect(page.getByTestId('needs-connection')).toBeVisible();

  await page.evaluate(
    () =>
      new Promise<void>((resolve) => {
        const open = indexedDB.open('field-app');
        open.onsuccess = () => {
          const tx = open.result.transaction('outbox', 'readwrite');
          const store = tx.objectStore('outbox');
          const cursor = store.openCursor();
          cursor.onsuccess = () => {
            const at = cursor.result;
            if (!at) return;
            if ((at.value as { key: string }).key === 'e2e-offline') at.delete();
            at.continue();
          };
          tx.oncomplete = () => {
            open.result.close();
            resolve();
          };
        };
      }),
  );
  await context.setOffline(false);
});
