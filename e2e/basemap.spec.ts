import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import type { CurrentUser, LoginResponse } from '../src/shared/api';
import { ACCOUNTS, boxesOf, overlapping, signIn } from './helpers';

/**
 * The base map (navigation settings) in Chromium: without one no map asks for a tile and a note says where to
 * set it; once an administrator sets a folder of z/x/y tiles, the map shows them with their credit.
 */

/** A valid 1×1 PNG: the browser must decode it for Leaflet to count the tile loaded. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

async function adminHeaders(request: APIRequestContext): Promise<{ authorization: string }> {
  const response = await request.post('/api/v1/auth/login', { data: { username: 'admin', password: ACCOUNTS.admin } });
  return { authorization: `Bearer ${((await response.json()) as LoginResponse).token}` };
}

/** The slippy-map tile of a position at a zoom. */
function tileOf(lat: number, lon: number, zoom: number): [number, number] {
  const n = 2 ** zoom;
  const rad = (lat * Math.PI) / 180;
  return [Math.floor(((lon + 180) / 360) * n), Math.floor(((1 - Math.log(Math.tan(rad) + 1 / Math.cos(rad)) / Math.PI) / 2) * n)];
}

/** Tiles around where the admin's map opens, enough to cover the screen. */
function writeTiles(folder: string, { lat, lon, zoom }: CurrentUser['mapSettings']): void {
  const [cx, cy] = tileOf(lat, lon, zoom);
  for (let x = cx - 4; x <= cx + 4; x++) {
    mkdirSync(join(folder, String(zoom), String(x)), { recursive: true });
    for (let y = cy - 4; y <= cy + 4; y++) writeFileSync(join(folder, String(zoom), String(x), `${y}.png`), PNG);
  }
}

/** Every /tile/ answer the page receives. */
function tileAnswers(page: Page): number[] {
  const statuses: number[] = [];
  page.on('response', (response) => {
    if (new URL(response.url()).pathname.startsWith('/tile/')) statuses.push(response.status());
  });
  return statuses;
}

test('without a base map no tile is asked for and the map says where to set one; a folder set by an admin shows', async ({
  page,
  request,
}) => {
  test.setTimeout(300_000);
  const headers = await adminHeaders(request);
  const folder = mkdtempSync(join(tmpdir(), 'e2e-tiles-'));
  try {
    const statuses = tileAnswers(page);
    await signIn(page, 'admin');
    await page.goto('/map');
    const map = page.getByTestId('map');
    await expect(map).toBeVisible({ timeout: 45_000 });
    await expect(map.getByTestId('base-map-note')).toContainText('Подложка карты не настроена');
    await expect(map.getByTestId('base-map-note')).toContainText('Навигация');
    // the note leaves the colour legend readable
    expect(overlapping(await boxesOf(map.getByTestId('base-map-note')), await boxesOf(page.getByTestId('map-legend')))).toEqual([]);
    await expect(map.locator('.leaflet-control-attribution')).not.toContainText('OpenStreetMap');
    await page.waitForTimeout(1500);
    expect(statuses).toEqual([]);
    await expect(map.locator('img.leaflet-tile')).toHaveCount(0);

    const user = (await (await request.get('/api/v1/auth/current/', { headers })).json()) as CurrentUser;
    writeTiles(folder, user.mapSettings);
    // The administrator sets the folder on the navigation settings page.
    await page.goto('/system/navigation');
    const form = page.getByTestId('settings-navigation');
    await form.getByLabel('Подложка карты').click();
    await page.getByRole('option', { name: 'Папка тайлов z/x/y.png на сервере' }).click();
    await form.getByLabel('Адрес сервера тайлов или путь на сервере').fill(folder);
    await form.getByLabel('Подпись подложки на карте').fill('Тайлы депо');
    await form.getByRole('button', { name: 'Сохранить' }).click();
    await expect(page.getByText('Настройки сохранены')).toBeVisible();

    await page.goto('/map');
    await expect(map).toBeVisible({ timeout: 45_000 });
    await expect.poll(() => map.locator('img.leaflet-tile-loaded').count(), { timeout: 20_000 }).toBeGreaterThan(0);
    expect(statuses.filter((status) => status === 200).length).toBeGreaterThan(0);
    await expect(map.getByTestId('base-map-note')).toHaveCount(0);
    await expect(map.locator('.leaflet-control-attribution')).toContainText('Тайлы депо');
  } finally {
    await request.put('/api/v1/settings/navigation', { headers, data: { baseMap: { kind: 'none', location: '', attribution: '' } } });
    rmSync(folder, { recursive: true, force: true });
  }
});
