import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { boxesOf, loginViaUi, overlapping, signIn } from './helpers';

/** The three ADAS incident reports over the demo's 90 days of incidents: build, chart, table, drill-down, review, export. */
test.describe('ADAS incident reports', () => {
  test.describe.configure({ timeout: 90_000 });

  const build = async (page: Page, path: string) => {
    const built = page.waitForResponse((r) => r.url().includes(`/api/v1/reports${path}?`));
    await page.getByTestId('report-build').click();
    expect((await built).status()).toBe(200);
  };

  for (const path of ['/adas/incidents-dynamic', '/adas/incidents-distribution', '/adas/incidents-detailing']) {
    test(`${path} is built for the last 30 days with its chart, numbers and table`, async ({ page }) => {
      await signIn(page, 'admin');
      await page.goto(path);
      await expect(page.getByTestId('report-hint')).toBeVisible();
      await build(page, path);
      await expect(page.getByTestId('report-chart').locator('svg').first()).toBeVisible();
      await expect(page.getByTestId('report-chart-table').locator('tbody tr').first()).toBeVisible();
      await expect(page.getByTestId('report-table').locator('tbody tr').first()).toBeVisible();
      await expect(page.getByTestId('report-totals')).toContainText('Итого');
    });
  }

  test('the distribution shows the rates per route and exports what it shows as CSV', async ({ page }) => {
    await signIn(page, 'admin');
    await page.goto('/adas/incidents-distribution');
    await build(page, '/adas/incidents-distribution');
    const table = page.getByTestId('report-table');
    await expect(table.getByRole('columnheader', { name: 'На 100 км' })).toBeVisible();
    await expect(table.getByRole('columnheader', { name: 'На 1000 рейсов' })).toBeVisible();
    await expect(table.getByRole('columnheader', { name: 'Изменение, %' })).toBeVisible();
    const firstRoute = (await table.locator('tbody tr').first().locator('td').first().innerText()).trim();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('report-export-csv').click()]);
    expect(download.suggestedFilename()).toMatch(/^incidents-distribution-\d{4}-\d{2}-\d{2}\.csv$/);
    const text = readFileSync((await download.path())!, 'utf8');
    expect(text.startsWith('\uFEFF')).toBe(true);
    const lines = text.slice(1).trim().split(/\r?\n/);
    expect(lines[0]).toBe(
      'ID маршрута;Маршрут;Количество;Доля, %;Пробег, км;Рейсов;На 100 км;На 1000 рейсов;За прошлый период;Изменение, %;Ложные срабатывания;Доля ложных, %',
    );
    expect(lines[1].split(';')[1]).toBe(firstRoute);
    const shown = await page.getByText(/^1–\d+ из \d+$/).innerText();
    expect(lines.length - 1).toBe(Number(shown.split(' из ')[1]));
  });

  test('the distribution pie names its slices without overlap: each in the legend, the large ones beside the pie too', async ({ page }) => {
    await signIn(page, 'admin');
    await page.goto('/adas/incidents-distribution');
    await build(page, '/adas/incidents-distribution');
    const chart = page.getByTestId('report-chart').filter({ has: page.locator('.recharts-pie') });
    const slices = chart.locator('.recharts-pie-sector');
    await expect(slices.first()).toBeVisible();
    const labels = await boxesOf(chart.locator('.recharts-pie-label-text'));
    const legend = await boxesOf(chart.locator('.recharts-legend-item'));
    expect(labels.length).toBeGreaterThan(0);
    expect(legend).toHaveLength(await slices.count());
    expect(legend.every((item) => item.text !== '')).toBe(true);
    expect(overlapping(labels)).toEqual([]);
    expect(overlapping(legend)).toEqual([]);
    expect(overlapping(labels, legend)).toEqual([]);
    // the labels stay inside the chart's box
    const box = (await chart.locator('.recharts-wrapper').boundingBox())!;
    for (const label of labels) {
      expect(label.x, label.text).toBeGreaterThanOrEqual(box.x - 1);
      expect(label.x + label.width, label.text).toBeLessThanOrEqual(box.x + box.width + 1);
    }
  });

  test('a vehicle drills down to one incident on a small map; marked a false alarm it leaves the count', async ({ page }) => {
    await signIn(page, 'admin');
    await page.goto('/adas/incidents-detailing');
    await page.getByRole('combobox', { name: 'Ложные срабатывания' }).click();
    await page.getByRole('option', { name: 'Не учитывать' }).click();
    await build(page, '/adas/incidents-detailing');
    const rows = page.getByTestId('report-table').locator('tbody tr');
    const first = rows.first();
    const depotNumber = (await first.locator('td').nth(0).innerText()).trim();
    const count = Number((await first.locator('td').nth(3).innerText()).replace(/\s/g, ''));
    expect(count).toBeGreaterThan(0);

    await first.click();
    const incidents = page.getByTestId('vehicle-incidents');
    await expect(incidents.getByTestId('vehicle-incident').first()).toBeVisible();
    await incidents.getByTestId('vehicle-incident').first().click();
    const card = page.getByTestId('incident-card');
    await expect(card).toBeVisible();
    await expect(card.getByTestId('incident-map')).toBeVisible();
    await expect(card.getByTestId('incident-map').locator('path.leaflet-interactive')).toHaveCount(1);
    // «Request video ±1 min»: the archive request form for the incident's vehicle, a minute either side of it
    const videoLink = card.getByTestId('incident-request-video');
    await expect(videoLink).toHaveText(/Запросить видео ±1 мин/);
    const href = new URL((await videoLink.getAttribute('href'))!, 'http://console');
    expect(href.pathname).toBe('/video/requests/create');
    expect(Number(href.searchParams.get('vehicle'))).toBeGreaterThan(0);
    expect(Date.parse(href.searchParams.get('to')!) - Date.parse(href.searchParams.get('from')!)).toBe(120_000);

    await card.getByTestId('review-false-alarm').click();
    await card.getByTestId('review-comment').fill('Блик на стекле (e2e)');
    const saved = page.waitForResponse((r) => r.url().includes('/review') && r.request().method() === 'PUT');
    await card.getByTestId('review-save').click();
    expect((await saved).status()).toBe(200);
    await expect(page.getByText('Разбор сохранён')).toBeVisible();

    await build(page, '/adas/incidents-detailing');
    const again = page
      .getByTestId('report-table')
      .locator('tbody tr')
      .filter({ has: page.locator('td:first-child', { hasText: new RegExp(`^${depotNumber}$`) }) });
    const after = count - 1;
    if (after === 0) await expect(again).toHaveCount(0);
    else await expect(again.locator('td').nth(3)).toHaveText(String(after));

    // the review is in the incidents journal
    await page.goto('/journal/adas');
    await expect(page.getByTestId('report-table').getByText('Блик на стекле (e2e)')).toBeVisible();

    // the video link opens the prefilled archive request form
    await page.goto(`${href.pathname}${href.search}`);
    await expect(page).toHaveURL(/\/video\/requests\/create\?vehicle=/);
    await expect(page.getByRole('heading', { name: 'Запрос видеоархива' }).first()).toBeVisible();
  });

  test('the notification link opens its incident above the detailing', async ({ page, request }) => {
    await loginViaUi(page, 'admin');
    const token = await page.evaluate(() => localStorage.getItem('token'));
    const list = await request.post('/api/v1/adas/vehicle-incidents-detail-table', {
      headers: { authorization: `Bearer ${token}` },
      data: { from: new Date(Date.now() - 30 * 86_400_000).toISOString(), to: new Date().toISOString(), recordCount: 1 },
    });
    const [incident] = (await list.json()).list as { id: number; incident_name: string }[];
    await page.goto(`/adas/incidents-detailing?event=${incident.id}`);
    const card = page.getByTestId('incident-from-link');
    await expect(card).toContainText(incident.incident_name);
    await expect(card.getByTestId('incident-map')).toBeVisible();
    await expect(page.getByTestId('report-hint')).toBeVisible();
  });
});
