import { readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { boxesOf, overlapping, signIn } from './helpers';

/**
 * The thirteen passenger-flow screens over the demo's history (filled in the background after a fresh start:
 * the first test waits for it), the stops map, the load profile of one route, the validation import with its
 * progress and history row, and an export.
 */
const SCREENS: { path: string; part?: string; chart: boolean }[] = [
  { path: '/passengers/analysis', part: 'passenger-summary', chart: true },
  { path: '/passengers/registry', chart: false },
  { path: '/passengers/passage', chart: true },
  { path: '/passengers/stops', part: 'stops-map', chart: true },
  { path: '/passengers/pay', chart: true },
  { path: '/passengers/correspondence', part: 'od-matrix', chart: false },
  { path: '/passengers/passturn/table', chart: true },
  { path: '/passengers/turnstops/table', chart: true },
  { path: '/passengers/betweenstops/table', part: 'load-profile', chart: false },
  { path: '/passengers/rolling-stock', chart: true },
  { path: '/passengers/dist-rolling-stock', chart: true },
  { path: '/reports/traffic', chart: true },
  { path: '/passengers/daily-data', chart: true },
];

const build = async (page: Page, path: string) => {
  const built = page.waitForResponse((r) => r.url().includes(`/api/v1/reports${path}?`));
  await page.getByTestId('report-build').click();
  expect((await built).status()).toBe(200);
};

test.describe('passenger flow', () => {
  test.describe.configure({ timeout: 240_000 });

  test('the demo history arrives in the background after a fresh start', async ({ request }) => {
    const login = await request.post('/api/v1/auth/login', { data: { username: 'admin', password: 'admin123' } });
    const authorization = `Bearer ${(await login.json()).token}`;
    const from = new Date(Date.now() - 31 * 86_400_000).toISOString();
    const to = new Date().toISOString();
    // the history is written newest day first; the screens below show the last 7 days
    await expect
      .poll(
        async () => {
          const response = await request.get(`/api/v1/reports/reports/traffic?from=${from}&to=${to}`, { headers: { authorization } });
          const body = await response.json();
          return new Set((body.list as { day: string; planned: number }[]).filter((row) => row.planned > 0).map((row) => row.day)).size;
        },
        { timeout: 220_000, intervals: [3000] },
      )
      .toBeGreaterThanOrEqual(8);
  });

  for (const screen of SCREENS) {
    test(`${screen.path} is built for the last 7 days with its numbers${screen.chart ? ' and chart' : ''}`, async ({ page }) => {
      await signIn(page, 'admin');
      await page.goto(screen.path);
      await expect(page.getByTestId('report-hint')).toBeVisible();
      await build(page, screen.path);
      await expect(page.getByTestId('report-table').locator('tbody tr').first()).toBeVisible();
      await expect(page.getByTestId('report-table').locator('tbody tr').first().locator('td').nth(1)).not.toHaveText('');
      if (screen.chart) {
        await expect(page.getByTestId('report-chart').locator('svg').first()).toBeVisible();
        await expect(page.getByTestId('report-chart-table').locator('tbody tr').first()).toBeVisible();
      }
      if (screen.part) await expect(page.getByTestId(screen.part)).toBeVisible();
      // the matrix's cells come cut on the server: its busiest cells carry journeys
      if (screen.part === 'od-matrix') {
        await expect(page.getByTestId('od-cell').filter({ hasText: /\d/ }).first()).toBeVisible();
        await page.screenshot({ path: 'test-results/screens/passengers-correspondence.png' });
      }
    });
  }

  test("the correspondence matrix's headers are readable: one line each, none over another, within its column", async ({ page }) => {
    await signIn(page, 'admin');
    await page.goto('/passengers/correspondence');
    await build(page, '/passengers/correspondence');
    const headers = page.getByTestId('od-matrix').getByTestId('od-destination');
    await expect(headers.first()).toBeVisible();
    const names = await boxesOf(headers.locator('div'));
    expect(names).toHaveLength(await headers.count());
    expect(overlapping(names)).toEqual([]);
    const cells = await boxesOf(headers);
    const lines = await headers
      .locator('div')
      .evaluateAll((elements) => elements.map((element) => parseFloat(getComputedStyle(element).lineHeight)));
    for (const [i, name] of names.entries()) {
      expect(name.text, 'a name, in full in its title').toBe(await headers.nth(i).getAttribute('title'));
      // written upwards on one line: no wider than a line, inside its column
      expect(name.width, name.text).toBeLessThanOrEqual(lines[i] + 1);
      expect(name.x, name.text).toBeGreaterThanOrEqual(cells[i].x);
      expect(name.x + name.width, name.text).toBeLessThanOrEqual(cells[i].x + cells[i].width);
    }
    const origins = await boxesOf(page.getByTestId('od-matrix').locator('tbody th'));
    expect(overlapping(origins)).toEqual([]);
  });

  test('a stop chosen on the stops map shows its figures', async ({ page }) => {
    await signIn(page, 'admin');
    await page.goto('/passengers/stops');
    await build(page, '/passengers/stops');
    await expect(page.getByTestId('stop-detail')).toContainText('Выберите остановку');
    const circle = page.getByTestId('stops-map').locator('path.passenger-stop').last();
    await circle.click({ force: true });
    await expect(page.getByTestId('stop-detail-name')).not.toBeEmpty();
    await expect(page.getByTestId('stop-detail')).toContainText('Пассажирообмен');
  });

  test('the load profile of one route against its capacity', async ({ page }) => {
    await signIn(page, 'admin');
    await page.goto('/passengers/betweenstops/table');
    await build(page, '/passengers/betweenstops/table');
    const profile = page.getByTestId('load-profile');
    await expect(profile).toContainText('Наполняемость по перегонам');
    await expect(profile.locator('.recharts-reference-line')).toHaveCount(2);
    await expect(profile.locator('.recharts-line')).toHaveCount(2);
    const rows = page.getByTestId('report-table').locator('tbody tr');
    expect(await rows.count()).toBeGreaterThan(3);
  });

  test('a small validation file is imported with its progress and its history row; again it adds nothing', async ({ page, request }) => {
    const login = await request.post('/api/v1/auth/login', { data: { username: 'admin', password: 'admin123' } });
    const authorization = `Bearer ${(await login.json()).token}`;
    // the depot number of a demo vehicle (the vehicles picker's first, "<depot number> <plate>")
    const vehicles = await request.get('/api/v1/reports/passengers/daily-data/options/vehicle', { headers: { authorization } });
    const depot = ((await vehicles.json()) as { name: string }[])[0].name.split(' ')[0];
    const day = new Date(Date.now() - 86_400_000);
    const local = `${String(day.getDate()).padStart(2, '0')}.${String(day.getMonth() + 1).padStart(2, '0')}.${day.getFullYear()}`;
    const lines = ['time;validator;depot_number;route;ticket_type;card_token'];
    for (let i = 0; i < 50; i++) lines.push(`${local} 10:${String(i).padStart(2, '0')}:00;7001;${depot};;101;E2E-${Date.now()}-${i}`);
    const file = join(tmpdir(), `validations-e2e-${Date.now()}.csv`);
    writeFileSync(file, lines.join('\n'));
    await signIn(page, 'admin');
    await page.goto('/import-data/tickets-validation');
    const before = await page
      .getByTestId('report-table')
      .locator('tbody tr')
      .count()
      .catch(() => 0);
    // a 50-row file is stored faster than an assertion looks: the answer is held until the progress is seen
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route('**/api/v1/passengers/validations/import**', async (route) => {
      await held;
      await route.continue();
    });
    const answer = page.waitForResponse((r) => r.url().includes('/api/v1/passengers/validations/import'));
    await page.getByTestId('validation-import-file').setInputFiles(file);
    await expect(page.getByTestId('import-progress')).toBeVisible();
    release();
    expect((await answer).status()).toBe(200);
    await expect(page.getByTestId('import-result')).toContainText('добавлено: 50');
    const row = page.getByTestId('report-table').locator('tbody tr').first();
    await expect(row).toContainText('validations-e2e-');
    await expect(row).toContainText('admin');
    expect(await page.getByTestId('report-table').locator('tbody tr').count()).toBeGreaterThan(before);
    await page.getByTestId('validation-import-file').setInputFiles(file);
    await expect(page.getByTestId('import-result')).toContainText('добавлено: 0, пропущено (уже были): 50');
  });

  test('a file with bad rows adds its good ones, lists the refused ones and downloads them as CSV', async ({ page, request }) => {
    const login = await request.post('/api/v1/auth/login', { data: { username: 'admin', password: 'admin123' } });
    const vehicles = await request.get('/api/v1/reports/passengers/daily-data/options/vehicle', {
      headers: { authorization: `Bearer ${(await login.json()).token}` },
    });
    const day = new Date(Date.now() - 86_400_000);
    const local = `${String(day.getDate()).padStart(2, '0')}.${String(day.getMonth() + 1).padStart(2, '0')}.${day.getFullYear()}`;
    await signIn(page, 'admin');
    await page.goto('/import-data/tickets-validation');
    const depot = ((await vehicles.json()) as { name: string }[])[0].name.split(' ')[0];
    const stamp = Date.now();
    const lines = ['time;validator;depot_number;route;ticket_type;card_token'];
    for (let i = 0; i < 3; i++) lines.push(`${local} 11:0${i}:00;7002;${depot};;101;E2E-PART-${stamp}-${i}`);
    lines.push(`${local} 11:10:00;7002;${depot};;999;=E2E-BAD-${stamp}`, `31.02.2020 11:11:00;7002;${depot};;101;E2E-BAD-${stamp}`);
    const file = join(tmpdir(), `validations-part-${stamp}.csv`);
    writeFileSync(file, lines.join('\n'));
    await page.getByTestId('validation-import-file').setInputFiles(file);
    await expect(page.getByTestId('import-result')).toContainText('добавлено: 3');
    await expect(page.getByTestId('import-result')).toContainText('Отклонено строк: 2');
    await expect(page.getByTestId('import-errors').locator('tbody tr')).toHaveCount(2);
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('import-refused-file').click()]);
    expect(download.suggestedFilename()).toMatch(/^validations-\d+-refused\.csv$/);
    const text = readFileSync((await download.path())!, 'utf8')
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(text).toHaveLength(3);
    expect(text[0]).toBe('time;validator;depot_number;route;ticket_type;card_token;Строка;Столбец;Причина');
    expect(text[1]).toContain(`;'=E2E-BAD-${stamp};5;ticket_type;`);
    expect(text[2]).toContain(';6;time;');
  });

  test('the traffic report exports what it shows as CSV', async ({ page }) => {
    await signIn(page, 'admin');
    await page.goto('/reports/traffic');
    await build(page, '/reports/traffic');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('report-export-csv').click()]);
    expect(download.suggestedFilename()).toMatch(/^traffic-\d{4}-\d{2}-\d{2}\.csv$/);
    const text = readFileSync((await download.path())!, 'utf8');
    const lines = text.slice(1).trim().split(/\r?\n/);
    expect(lines[0]).toBe('Дата;ID маршрута;Маршрут;Рейсов по плану;Рейсов выполнено;Регулярность, %;Среднее время рейса, мин');
    const shown = await page.getByText(/^1–\d+ из \d+$/).innerText();
    expect(lines.length - 1).toBe(Number(shown.split(' из ')[1]));
  });
});
