import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { SERVICE_DAY_CHANGEOVER_MINUTES } from '../src/shared/dispatch/api';
import { DISPATCH_REPORTS } from '../src/shared/reports/dispatch';
import { operatorDate, operatorMidnight } from '../src/server/platform/operatorDay';
import { reportApi, type ReportDeclaration } from '../src/shared/reports/types';
import { menuPaths, signIn } from './helpers';

/**
 * The dispatcher's reports on the running demo: the simulator drives the fleet, the live timetable stores its
 * passages and samples its predictions. Each report opens with its defaults (today, grouped as declared), is built
 * and shows rows, its chart and its export buttons. Signed in by the token (no login screen).
 */
test.describe.configure({ mode: 'serial' });

let token = '';
const MOSCOW = 180;

/** A report's rows of today as its API gives them. */
async function rowsToday(request: APIRequestContext, path: string): Promise<number> {
  // «Сегодня» as the browser reads it: the service day in progress, in Moscow (the runner's clock may be in another zone)
  const midnight = operatorMidnight(operatorDate(Date.now() - SERVICE_DAY_CHANGEOVER_MINUTES * 60_000, MOSCOW), MOSCOW);
  const [from, to] = [new Date(midnight), new Date(midnight + 86_400_000 - 1000)];
  const report = DISPATCH_REPORTS.find((r) => r.path === path)!;
  const response = await request.get(
    `${reportApi(report)}?from=${encodeURIComponent(from.toISOString())}&to=${encodeURIComponent(to.toISOString())}`,
    {
      headers: { authorization: `Bearer ${token}` },
    },
  );
  expect(response.status()).toBe(200);
  return ((await response.json()) as { count: number }).count;
}

/** Reports that have rows within minutes of a fresh start: passages, the timetable's runs, predictions and arrivals. */
const PROMPT = DISPATCH_REPORTS.filter((report) => report.path !== '/reports/headways');

test.beforeAll(async ({ request }) => {
  test.setTimeout(480_000);
  const login = await request.post('/api/v1/auth/login', { data: { username: 'admin', password: 'admin123' } });
  ({ token } = (await login.json()) as { token: string });
  // a prediction is compared once its vehicle reaches the stop: the first minutes of samples, then their arrivals
  for (const report of PROMPT) {
    await expect.poll(() => rowsToday(request, report.path), { timeout: 450_000, intervals: [5_000] }).toBeGreaterThan(0);
  }
});

/** Builds a report with its defaults (today, grouped as declared); the table's rows as the page shows them. */
async function build(page: Page, report: ReportDeclaration): Promise<Locator> {
  await signIn(page, 'admin');
  await page.goto(report.path);
  await expect(page.getByTestId('report-hint')).toBeVisible();
  const built = page.waitForResponse((r) => r.url().includes(`${reportApi(report)}?`));
  await page.getByTestId('report-build').click();
  expect((await built).status()).toBe(200);
  expect(new URL(page.url()).searchParams.get('from')).toBeTruthy();
  await expect(page.getByTestId('report-export-csv')).toBeVisible();
  await expect(page.getByTestId('report-export-xlsx')).toBeVisible();
  return page.getByTestId('report-table').locator('tbody tr');
}

for (const report of PROMPT) {
  test(`${report.title}: built with its defaults, it shows rows and a chart`, async ({ page }) => {
    const rows = await build(page, report);
    await expect(rows.first()).toBeVisible();
    expect(await rows.count()).toBeGreaterThan(0);
    const chart = page.getByTestId('report-chart');
    await expect(chart.locator('svg').first()).toBeVisible();
    // the horizons and the two methods read as the table reads them, the shares side by side (no total)
    if (report.path === '/reports/predictions') {
      await expect(chart).toContainText('0–5 мин');
      await expect(chart).toContainText('По накопленным временам');
      await expect(chart.getByTestId('report-chart-table')).not.toContainText('Итого');
    }
  });
}

test('Регулярность интервалов: built with its defaults, it shows the headways measured so far', async ({ page, request }) => {
  // the test demo runs each direction of a route every 40 minutes or so: a fresh server measures its first headway
  // (two vehicles in turn at a stop) after about that long, so the page shows what the API has at the time
  const headways = DISPATCH_REPORTS.find((r) => r.path === '/reports/headways')!;
  const count = await rowsToday(request, headways.path);
  const rows = await build(page, headways);
  if (count > 0) await expect(rows.first()).toBeVisible();
  else await expect(page.getByTestId('report-empty')).toHaveText('Нет данных для выбранных фильтров');
});

test("the menu lists the reports in «Диспетчерская» after the dispatcher's screens, the last «Сообщения водителям»", async ({ page }) => {
  await signIn(page, 'admin');
  await page.goto('/dispatch/board');
  const paths = await menuPaths(page);
  expect(paths).toEqual(
    expect.arrayContaining([
      '/dispatch/exits',
      '/dispatch/changes',
      '/dispatch/messages',
      ...DISPATCH_REPORTS.map((report) => report.path),
    ]),
  );
  expect(paths.indexOf(DISPATCH_REPORTS[0].path)).toBe(paths.indexOf('/dispatch/messages') + 1);
});
