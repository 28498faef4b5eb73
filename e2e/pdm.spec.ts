import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { ACCOUNTS, signIn } from './helpers';

/** PDM in Chromium over the test-scale demo: trees, charts, heat map, import, the node journal's timeline. */
test.describe('PDM', () => {
  test.describe.configure({ timeout: 90_000 });

  const token = async (request: APIRequestContext) => {
    const response = await request.post('/api/v1/auth/login', { data: { username: 'admin', password: ACCOUNTS.admin } });
    return `Bearer ${(await response.json()).token as string}`;
  };
  /** A demo bus with a tree: its id and garage number. */
  const busWithTree = async (request: APIRequestContext) => {
    const response = await request.get('/api/v1/reports/pdm/vehicle-diagnostic-report?sensor=engine_temp', {
      headers: { authorization: await token(request) },
    });
    const row = (await response.json()).list[0] as { vehicle_id: number; depot_number: number };
    expect(row).toBeTruthy();
    return row;
  };
  const build = async (page: Page, path: string) => {
    const built = page.waitForResponse((r) => r.url().includes(`/api/v1/reports${path}?`));
    await page.getByTestId('report-build').click();
    expect((await built).status()).toBe(200);
  };
  const lastHours = (hours: number) => {
    const to = new Date(Date.now() + 10 * 60_000);
    return `from=${encodeURIComponent(new Date(to.getTime() - hours * 3_600_000).toISOString())}&to=${encodeURIComponent(to.toISOString())}`;
  };

  test('a tree edited by drag and drop keeps its shape after a reload', async ({ page }) => {
    await signIn(page, 'admin');
    await page.goto('/pdm/tree-editor');
    await page.getByTestId('pdm-new-tree-name').fill('E2E дерево');
    await page.getByTestId('pdm-new-tree').click();
    await expect(page.getByTestId('pdm-tree')).toBeVisible();
    const add = async (name: string) => {
      await page.getByTestId('pdm-new-node-name').fill(name);
      await page.getByTestId('pdm-add-node').click();
      await expect(page.getByTestId('pdm-tree-node').filter({ hasText: name })).toBeVisible();
    };
    await add('Регистратор');
    await add('Двигатель');
    await page.getByTestId('pdm-tree-node').filter({ hasText: 'Регистратор' }).click();
    await add('Топливная система');
    const fuel = page.getByTestId('pdm-tree-node').filter({ hasText: 'Топливная система' });
    await expect(fuel).toHaveAttribute('data-depth', '1');
    await fuel.dragTo(page.getByTestId('pdm-tree-node').filter({ hasText: 'Двигатель' }));
    await expect(fuel).toHaveAttribute('data-depth', '2');
    await page.reload();
    await expect(page.getByTestId('pdm-tree-node').filter({ hasText: 'Топливная система' })).toHaveAttribute('data-depth', '2');
    // the selection survives the refresh after a change
    await page.getByTestId('pdm-tree-node').filter({ hasText: 'Двигатель' }).click();
    await page.getByTestId('pdm-node-name').fill('Двигатель внутреннего сгорания');
    await page.getByTestId('pdm-node-save').click();
    await expect(page.getByTestId('pdm-tree-node').filter({ hasText: 'Двигатель внутреннего сгорания' })).toHaveAttribute(
      'aria-selected',
      'true',
    );
  });

  test('a chart of two sensors of a vehicle', async ({ page, request }) => {
    const bus = await busWithTree(request);
    await signIn(page, 'admin');
    await page.goto(`/pdm/charts?${lastHours(24)}&vehicle=${bus.vehicle_id}&sensor=engine_temp,voltage`);
    const chart = page.waitForResponse((r) => r.url().includes('/api/v1/pdm/chart?'));
    await page.reload();
    expect((await chart).status()).toBe(200);
    await expect(page.getByTestId('pdm-chart')).toHaveAttribute('data-series', '2');
    await expect(page.getByTestId('pdm-chart').locator('.recharts-line')).toHaveCount(2);
    await expect(page.getByTestId('report-table').locator('tbody tr').first()).toBeVisible();
  });

  test('the heat map is drawn with its grid', async ({ page }) => {
    await signIn(page, 'admin');
    await page.goto('/pdm/heatmap');
    await build(page, '/pdm/heatmap');
    await expect(page.getByTestId('pdm-heat-map')).toHaveAttribute('data-heat-points', /^[1-9]\d*$/);
    await expect(page.locator('canvas.leaflet-heatmap-layer')).toBeVisible();
    await expect(page.getByTestId('pdm-heat-grid').locator('[data-cell="v"]').first()).toBeVisible();
  });

  test('a file imported through the manager with one bad row reported, then a fault in the journal timeline', async ({ page, request }) => {
    const bus = await busWithTree(request);
    await signIn(page, 'admin');
    await page.goto('/pdm/import-manager');
    // two minutes ahead, so the simulator's latest reading does not outdate it: the engine at 130 °C is a fault
    const at = new Date(Date.now() + 120_000).toISOString();
    const csv = [
      'Гаражный номер;Датчик;Время;Значение',
      `${bus.depot_number};Температура ОЖ;${at};130`,
      `${bus.depot_number};Нет такого;${at};1`,
    ].join('\n');
    await page.getByTestId('pdm-import-file').setInputFiles({ name: 'readings.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await expect(page.getByTestId('pdm-import-preview').locator('tbody tr')).toHaveCount(2);
    await page.getByTestId('pdm-import-dry').click();
    await expect(page.getByTestId('pdm-import-result')).toContainText('добавлено: 1');
    await page.getByTestId('pdm-import-run').click();
    await expect(page.getByTestId('pdm-import-result')).toContainText('отклонено: 1');
    const errors = page.getByTestId('pdm-import-errors');
    await expect(errors.locator('tbody tr')).toHaveCount(1);
    await expect(errors).toContainText('Датчик не найден в дереве ТС');
    await expect(page.getByTestId('pdm-import-failed')).toBeVisible();
    await expect(page.getByTestId('pdm-import-history').locator('tbody tr')).toHaveCount(2);

    await page.goto(`/pdm/change-node-journal?${lastHours(24)}&vehicle=${bus.vehicle_id}&state=fault`);
    await expect(page.getByTestId('report-table').locator('tbody tr').first()).toBeVisible();
    await expect(page.getByTestId('report-table')).toContainText('Неисправность');
    const node = page.getByTestId('pdm-timeline-node').filter({ hasText: 'Температура ОЖ' });
    await expect(node.locator('[data-state="fault"]').first()).toBeAttached();
  });
});
