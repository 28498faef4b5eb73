import { expect, test, type Page } from '@playwright/test';
import { loginViaUi, menuPaths, signIn } from './helpers';

/**
 * The PDM reports from their defaults, the event journals in Russian, one menu name per screen, and
 * errors that stay on the page they were raised on (Chromium over the test-scale demo).
 */
test.describe('PDM defaults, journals and menu names', () => {
  test.describe.configure({ timeout: 90_000 });

  const build = async (page: Page, path: string) => {
    const built = page.waitForResponse((r) => r.url().includes(`/api/v1/reports${path}?`));
    await page.getByTestId('report-build').click();
    expect((await built).status()).toBe(200);
  };

  test('/pdm/charts draws a chart from its defaults, without an error', async ({ page }) => {
    await signIn(page, 'admin');
    await page.goto('/pdm/charts');
    const chart = page.waitForResponse((r) => r.url().includes('/api/v1/pdm/chart?'));
    await build(page, '/pdm/charts');
    expect((await chart).status()).toBe(200);
    await expect(page.getByTestId('pdm-chart')).toBeVisible();
    expect(Number(await page.getByTestId('pdm-chart').getAttribute('data-series'))).toBeGreaterThan(0);
    // a line per sensor, each drawn on a scale of its own: a sensor whose readings vary is no flat line (a
    // constant one is, and a flat line's box has no height, which toBeVisible reads as hidden)
    const { series, points } = (await (await chart).json()) as { series: { key: string }[]; points: Record<string, number | null>[] };
    const lines = page.getByTestId('pdm-chart').locator('.recharts-line path.recharts-curve');
    await expect(lines).toHaveCount(series.length);
    for (const [i, { key }] of series.entries()) {
      const values = points.map((point) => point[key]).filter((value): value is number => typeof value === 'number');
      await expect(lines.nth(i)).toHaveAttribute('d', /L/);
      if (Math.max(...values) > Math.min(...values)) expect((await lines.nth(i).boundingBox())!.height, key).toBeGreaterThan(2);
    }
    await expect(lines.filter({ visible: true }).first()).toBeVisible();
    await expect(page.getByTestId('pdm-chart-default')).toContainText('Показаны датчики первого ТС');
    await expect(page.getByTestId('message')).toHaveCount(0);
  });

  test('the vehicle sensor diagnostic report builds on «Сформировать» with no filter set', async ({ page }) => {
    await signIn(page, 'admin');
    await page.goto('/pdm/vehicle-diagnostic-report');
    await expect(page.getByTestId('report-hint')).toBeVisible();
    await build(page, '/pdm/vehicle-diagnostic-report');
    await expect(page.getByTestId('report-table')).toBeVisible();
    await expect(page.getByTestId('report-table').locator('tbody tr').first()).toBeVisible();
  });

  test('the heat grid has a time axis over the week of the demo', async ({ page }) => {
    await signIn(page, 'admin');
    await page.goto('/pdm/heatmap');
    await build(page, '/pdm/heatmap');
    await expect(page.getByTestId('pdm-heat-grid')).toBeVisible();
    const ticks = page.getByTestId('pdm-heat-tick');
    await expect(ticks.first()).toBeVisible();
    expect(await ticks.count()).toBeGreaterThanOrEqual(6);
    // each day starts with its date, the hours between named every six
    await expect(ticks.filter({ hasText: /^\d{2}\.\d{2}$/ }).first()).toBeVisible();
  });

  test('the import manager says so when there is no import yet', async ({ page }) => {
    await page.route('**/api/v1/pdm/imports?*', (route) => route.fulfill({ json: { list: [], count: 0 } }));
    await signIn(page, 'admin');
    await page.goto('/pdm/import-manager');
    await expect(page.getByTestId('pdm-import-empty')).toHaveText('Импортов ещё не было: загрузите CSV-файл выше');
  });

  test('an error leaves with its page: the next page opens clean', async ({ page }) => {
    await page.route('**/api/v1/reports/pdm/service?*', (route) =>
      route.fulfill({ status: 400, json: { messages: ['report_too_large', 'rows'] } }),
    );
    await signIn(page, 'admin');
    await page.goto('/pdm/service');
    await page.getByTestId('report-build').click();
    await expect(page.getByTestId('message')).toHaveText(['Слишком много строк в отчёте: сузьте фильтры']);
    await menuPaths(page);
    await page.getByTestId('console-menu').locator('[data-path="/pdm/heatmap"]').click();
    await expect(page).toHaveURL(/\/pdm\/heatmap/);
    await expect(page.getByTestId('message')).toHaveCount(0);
  });

  test('«События ПО» shows event kinds and severities by name and details as labelled fields', async ({ page }) => {
    const row = {
      id: 1,
      at: new Date().toISOString(),
      vehicle_id: 1,
      depot_number: 1001,
      state_number: 'А001АА78',
      kind: 'mnt_command_performed',
      severity: 'warning',
      message: 'Конфигурация применена',
      details: { commandId: 12, attempts: 2 },
    };
    await page.route('**/api/v1/journals/eventspo?*', (route) => route.fulfill({ json: { list: [row], count: 1 } }));
    await signIn(page, 'admin');
    await page.goto('/journal/eventspo');
    const table = page.getByTestId('report-table');
    await expect(table).toContainText('Конфигурация применена');
    await expect(table).toContainText('Предупреждение');
    await expect(table.getByTestId('event-details')).toHaveText(/Команда:\s*12\s*Попыток:\s*2/);
    await expect(table).not.toContainText('mnt_command_performed');
    await expect(table).not.toContainText('commandId');
  });

  test('«События ТС» names its kinds and channels in Russian', async ({ page }) => {
    const row = {
      id: 1,
      at: new Date().toISOString(),
      vehicle_id: 1,
      depot_number: 1001,
      state_number: 'А001АА78',
      kind: 'disconnect',
      details: { channel: 'simulator', reason: 'timeout' },
    };
    await page.route('**/api/v1/journals/eventsts?*', (route) => route.fulfill({ json: { list: [row], count: 1 } }));
    await signIn(page, 'admin');
    await page.goto('/journal/eventsts');
    const table = page.getByTestId('report-table');
    await expect(table).toContainText('Отключение');
    await expect(table.getByTestId('event-details')).toHaveText(/Канал:\s*Симулятор\s*Причина:\s*timeout/);
  });

  test("the menu gives one name to one screen; a report's branch filter reads «Филиалы»", async ({ page }) => {
    await loginViaUi(page, 'admin');
    await menuPaths(page);
    const names = await page.getByTestId('console-menu').getByTestId('menu-entry').allInnerTexts();
    expect(names.filter((name, i) => names.indexOf(name) !== i)).toEqual([]);
    expect(names).toEqual(expect.arrayContaining(['Диагностика бортового оборудования', 'Диагностика датчиков ТС']));
    await page.goto('/pdm/service');
    await expect(page.getByTestId('report-filters')).toContainText('Филиалы');
    await expect(page.getByTestId('report-filters')).not.toContainText('Предприятия');
  });
});
