import { expect, test, type APIRequestContext } from '@playwright/test';
import { DISPATCH_REPORTS } from '../src/shared/reports/dispatch';
import { presetPeriod } from '../src/shared/reports/filters';
import { reportApi } from '../src/shared/reports/types';
import { menuPaths, signIn } from './helpers';

/**
 * The dispatcher's reports on the running demo: the simulator drives the fleet, the live timetable stores its
 * passages and samples its predictions. Each report opens with its defaults (today, grouped as declared), is built
 * and shows rows, its chart and its export buttons.
 */
test.describe.configure({ mode: 'serial' });

/** The stored passages and the samples matched to them, as the reports' API reads them for today. */
async function rowsToday(request: APIRequestContext, path: string): Promise<number> {
  const login = await request.post('/api/v1/auth/login', { data: { username: 'admin', password: 'admin123' } });
  const { token } = (await login.json()) as { token: string };
  const { from, to } = presetPeriod('today');
  const report = DISPATCH_REPORTS.find((r) => r.path === path)!;
  const response = await request.get(`${reportApi(report)}?from=${encodeURIComponent(from.toISOString())}&to=${encodeURIComponent(to.toISOString())}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(response.status()).toBe(200);
  return ((await response.json()) as { count: number }).count;
}

test.beforeAll(async ({ request }) => {
  test.setTimeout(420_000);
  // a prediction is compared once its vehicle reaches the stop: the first minutes of samples, then their arrivals
  for (const report of DISPATCH_REPORTS) {
    await expect.poll(() => rowsToday(request, report.path), { timeout: 400_000, intervals: [5_000] }).toBeGreaterThan(0);
  }
});

for (const report of DISPATCH_REPORTS) {
  test(`${report.title}: built with its defaults, it shows rows and a chart`, async ({ page }) => {
    await signIn(page, 'admin');
    await page.goto(report.path);
    await expect(page.getByTestId('report-hint')).toBeVisible();
    const built = page.waitForResponse((r) => r.url().includes(`${reportApi(report)}?`));
    await page.getByTestId('report-build').click();
    expect((await built).status()).toBe(200);
    const rows = page.getByTestId('report-table').locator('tbody tr');
    await expect(rows.first()).toBeVisible();
    expect(await rows.count()).toBeGreaterThan(0);
    await expect(page.getByTestId('report-chart').locator('svg').first()).toBeVisible();
    await expect(page.getByTestId('report-export-csv')).toBeVisible();
    await expect(page.getByTestId('report-export-xlsx')).toBeVisible();
    const url = new URL(page.url());
    expect(url.searchParams.get('from')).toBeTruthy();
  });
}

test('the menu lists the reports in «Диспетчерская»', async ({ page }) => {
  await signIn(page, 'admin');
  await page.goto('/dispatch/board');
  const paths = await menuPaths(page);
  expect(paths).toEqual(expect.arrayContaining(['/dispatch/exits', ...DISPATCH_REPORTS.map((report) => report.path)]));
  expect(paths.indexOf(DISPATCH_REPORTS[0].path)).toBe(paths.indexOf('/dispatch/exits') + 1);
});
