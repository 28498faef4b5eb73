import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { PassThrough } from 'node:stream';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import archiver from 'archiver';
import type { MapFilters } from '../src/shared/map';
import { largeFeed } from '../tests/helpers/gtfsFeeds';
import { ACCOUNTS, loginViaUi } from './helpers';

/**
 * «Импорт GTFS» (/import-data/gtfs) against the running product: a published sample feed uploaded and followed to
 * its report, its route found in the routes handbook and on the map, the history, the feed's download; and a
 * city-size feed cancelled while it is checked or written, leaving the handbooks as they were.
 */
const SCREENS = 'test-results/screens';
const SAMPLE = createRequire(import.meta.url).resolve('sample-gtfs-feed/gtfs.zip');

async function token(request: APIRequestContext): Promise<string> {
  const login = await request.post('/api/v1/auth/login', { data: { username: 'admin', password: ACCOUNTS.admin } });
  return ((await login.json()) as { token: string }).token;
}

async function api<T>(request: APIRequestContext, path: string): Promise<T> {
  const response = await request.get(path, { headers: { authorization: `Bearer ${await token(request)}` } });
  expect(response.status(), `${path}: ${await response.text()}`).toBe(200);
  return (await response.json()) as T;
}

/** The row counts of the handbooks an import writes. */
async function handbookCounts(request: APIRequestContext): Promise<Record<string, number>> {
  const auth = { authorization: `Bearer ${await token(request)}` };
  const counts: Record<string, number> = {};
  for (const type of ['agency', 'stops', 'routes', 'routevariants', 'trips', 'raspvariants', 'rasptimes', 'holidays']) {
    const response = await request.post('/api/table/list', { data: { config: { type }, perPage: 1 }, headers: auth });
    expect(response.status()).toBe(200);
    counts[type] = ((await response.json()) as { count: number }).count;
  }
  return counts;
}

/** A feed's files zipped in memory. */
async function zipOf(files: Record<string, string>): Promise<Buffer> {
  const zip = archiver('zip', { zlib: { level: 1 } });
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise((resolve) => out.on('end', resolve));
  zip.pipe(out);
  for (const [name, text] of Object.entries(files)) zip.append(text, { name });
  await zip.finalize();
  await done;
  return Buffer.concat(chunks);
}

async function openScreen(page: Page): Promise<void> {
  await loginViaUi(page, 'admin');
  await page.getByTestId('console-menu').getByText('Импорт данных').click();
  await page.getByTestId('console-menu').getByText('Импорт GTFS').click();
  await expect(page).toHaveURL(/\/import-data\/gtfs$/);
  await expect(page.getByTestId('gtfs-history')).toBeVisible();
}

test.describe('GTFS import', () => {
  test.describe.configure({ timeout: 60_000 });

  test.describe('a published feed', () => {
    // the route found in the handbook and on the map is the one the first test imports
    test.describe.configure({ mode: 'serial' });

    test('uploaded and followed to its report, which the history opens again', async ({ page }) => {
      await openScreen(page);
      await page
        .getByTestId('gtfs-file')
        .setInputFiles({ name: 'sample-feed.zip', mimeType: 'application/zip', buffer: readFileSync(SAMPLE) });
      const run = page.getByTestId('gtfs-run');
      await expect(run).toBeVisible();
      await expect(run.getByTestId('gtfs-stage')).toHaveAttribute('data-stage', 'end', { timeout: 20_000 });
      const report = run.getByTestId('gtfs-report');
      await expect(report).toHaveAttribute('data-status', 'done');
      await expect(report).toContainText('Сеть загружена в справочники');
      // the agency's zone is Warsaw's: the report says the times were moved into the operator's
      await expect(report.getByTestId('gtfs-timezone')).toContainText('Europe/Warsaw');
      const stopTimes = report.getByTestId('gtfs-files').locator('tr[data-file="stop_times.txt"] td');
      await expect(stopTimes.nth(1)).toHaveText('29');
      // every notice with its Russian name, file and line: a trip stopping at the airport station
      const atStation = report.getByTestId('gtfs-notices').locator('tr[data-code="wrong_stop_time_stop_location_type"]').first();
      await expect(atStation).toContainText('Рейс останавливается не на платформе');
      await expect(atStation).toContainText('stops.txt');
      await expect(atStation.locator('td').nth(3)).toHaveText(/^\d+$/);
      await page.screenshot({ path: `${SCREENS}/gtfs-report.png`, fullPage: true });

      // the history has it; opened again, the same report
      const id = await run.getAttribute('data-id');
      const entry = page.locator(`[data-testid="gtfs-history-row"][data-id="${id}"]`);
      await expect(entry).toHaveAttribute('data-status', 'done');
      await run.getByRole('button', { name: 'Закрыть' }).click();
      await expect(run).toHaveCount(0);
      await entry.getByRole('button', { name: 'Отчёт' }).click();
      await expect(page.getByTestId('gtfs-report')).toHaveAttribute('data-status', 'done');
    });

    test('the imported tram line is a route of the handbook and is drawn on the map', async ({ page, request }) => {
      await loginViaUi(page, 'admin');
      await page.goto('/handbooks/table/routes');
      await page.getByPlaceholder('Поиск').fill('Babbage');
      const rows = page.getByTestId('handbook-table').locator('tbody tr');
      await expect(rows).toHaveCount(1);
      await expect(rows.first()).toContainText('Charles Babbage Tram Line');

      // and on the map: found by the search, drawn with its stops
      const filters = await api<MapFilters>(request, '/api/v1/map/filters');
      const babbage = filters.routes.find((r) => r.name === 'Babbage')!;
      expect(babbage).toBeDefined();
      await page.goto('/map');
      const map = page.getByTestId('map');
      await expect(map).toBeVisible();
      await page.getByTestId('map-search-input').fill('Babbage');
      await page.getByTestId(`map-search-route-${babbage.id}`).click();
      await expect(map).toHaveAttribute('data-route-count', '1');
      await expect.poll(async () => Number(await map.getAttribute('data-route-stop-count'))).toBeGreaterThan(1);
      await page.screenshot({ path: `${SCREENS}/gtfs-route-on-map.png` });
    });
  });

  test('downloads the network as a GTFS feed', async ({ page }) => {
    await openScreen(page);
    const [download] = await Promise.all([page.waitForEvent('download', { timeout: 15_000 }), page.getByTestId('gtfs-download').click()]);
    expect(download.suggestedFilename()).toMatch(/\.zip$/);
    const bytes = readFileSync((await download.path())!);
    expect(bytes.subarray(0, 2).toString('latin1')).toBe('PK');
  });

  test('a large feed cancelled while it is checked or written leaves every handbook as it was', async ({ page, request }) => {
    const feed = await zipOf(largeFeed());
    const before = await handbookCounts(request);
    await openScreen(page);
    await page.getByTestId('gtfs-file').setInputFiles({ name: 'city.zip', mimeType: 'application/zip', buffer: feed });
    const run = page.getByTestId('gtfs-run');
    // the server has the file: it is being checked or written, and can be cancelled
    await expect(run.getByTestId('gtfs-stage')).toHaveAttribute('data-stage', /^(check|write)$/);
    await page.screenshot({ path: `${SCREENS}/gtfs-running.png` });
    await run.getByTestId('gtfs-cancel').click();
    await expect(run.getByTestId('gtfs-report')).toHaveAttribute('data-status', 'cancelled', { timeout: 15_000 });
    await expect(run.getByTestId('gtfs-report')).toContainText('Импорт отменён: справочники не изменены');
    await expect(run.getByTestId('gtfs-cancel')).toHaveCount(0);
    const id = await run.getAttribute('data-id');
    await expect(page.locator(`[data-testid="gtfs-history-row"][data-id="${id}"]`)).toHaveAttribute('data-status', 'cancelled');
    expect(await handbookCounts(request)).toEqual(before);
  });
});
