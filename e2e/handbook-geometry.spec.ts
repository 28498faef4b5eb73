import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { ACCOUNTS, signIn } from './helpers';

/**
 * The map inputs of the generated handbook forms: a coordinate pair typed or picked on a map (park), and a
 * polygon drawn with leaflet-geoman (district, a section that is off by default).
 */

async function adminToken(request: APIRequestContext): Promise<string> {
  const login = await request.post('/api/v1/auth/login', { data: { username: 'admin', password: ACCOUNTS.admin } });
  expect(login.status()).toBe(200);
  return ((await login.json()) as { token: string }).token;
}

async function setSections(request: APIRequestContext, sections: Record<string, boolean>): Promise<void> {
  const token = await adminToken(request);
  const response = await request.put('/api/v1/settings/modules', { data: { sections }, headers: { authorization: `Bearer ${token}` } });
  expect(response.status(), await response.text()).toBe(200);
}

/** Clicks a point of an element, given as fractions of its width and height. */
async function clickAt(page: Page, target: Locator, x: number, y: number): Promise<void> {
  const box = await target.boundingBox();
  if (!box) throw new Error('not visible');
  await page.mouse.click(box.x + box.width * x, box.y + box.height * y);
}

test.describe('handbook map inputs', () => {
  test.describe.configure({ timeout: 90_000 });

  test('a park: the coordinate pair is checked as typed, picked on the map, saved and listed', async ({ page }) => {
    await signIn(page, 'admin');
    await page.goto('/handbooks/table/park');
    const table = page.getByTestId('handbook-table');
    await expect(table.locator('tbody tr').first()).toBeVisible();
    await table.locator('tbody tr').first().click();
    await expect(page.getByTestId('handbook-form')).toBeVisible();

    const input = page.getByTestId('point-input-dp_point');
    await expect(input).toHaveValue(/^-?\d+\.\d{5}, -?\d+\.\d{5}$/);
    await input.fill('где-то в городе');
    await input.blur();
    await expect(page.getByText('Введите широту и долготу через запятую, например 59.93428, 30.33510')).toBeVisible();
    await input.fill('95; 30');
    await expect(page.getByText('Широта должна быть от -90 до 90')).toBeVisible();
    await input.fill('59,93428 30,33510');
    await expect(page.getByText('Широта должна быть от -90 до 90')).toHaveCount(0);

    // the picker opens on the current point; Escape closes it without change
    await page.getByRole('button', { name: 'Выбрать на карте' }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog.getByTestId('point-picker-value')).toHaveText('Точка: 59.93428, 30.33510');
    await page.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);
    await expect(input).toHaveValue('59,93428 30,33510');

    await page.getByRole('button', { name: 'Выбрать на карте' }).click();
    const map = dialog.getByTestId('point-picker-map');
    // the product's one base map, as on the map screen
    await expect(map.locator('.leaflet-container[data-base-map]')).toBeVisible();
    await expect(map.locator('.leaflet-control-attribution a[href="https://leafletjs.com"]')).toHaveText('Leaflet');
    await clickAt(page, map, 0.3, 0.35);
    await expect(map.locator('.handbook-point-pin')).toHaveCount(1);
    const chosen = (await dialog.getByTestId('point-picker-value').textContent())?.replace('Точка: ', '') ?? '';
    expect(chosen).toMatch(/^59\.\d{5}, 30\.\d{5}$/);
    expect(chosen).not.toBe('59.93428, 30.33510');
    await dialog.getByRole('button', { name: 'Выбрать' }).click();
    await expect(dialog).toHaveCount(0);
    await expect(input).toHaveValue(chosen);

    await page.getByRole('button', { name: 'Сохранить' }).click();
    await expect(page).toHaveURL(/\/handbooks\/table\/park$/);
    await expect(table.getByText(chosen)).toBeVisible();
  });

  test('a district: the border is required, drawn with geoman, saved and listed', async ({ page, request }) => {
    await setSections(request, { 'handbooks.district': true });
    try {
      await signIn(page, 'admin');
      await page.goto('/handbooks/table/district/create');
      await expect(page.getByTestId('handbook-form')).toBeVisible();
      const geometry = page.getByTestId('geometry-input-geom');
      await expect(geometry.getByText('Не задано')).toBeVisible();
      await page.getByLabel('Код').fill('E2E');
      await page.getByLabel('Наименование').fill('Район нарисованный');
      await page.getByRole('button', { name: 'Сохранить' }).click();
      await expect(geometry.getByText('Это обязательное поле')).toBeVisible();

      await geometry.getByRole('button', { name: 'Редактировать на карте' }).click();
      const dialog = page.getByRole('dialog');
      const map = dialog.getByTestId('geometry-editor-map');
      await expect(map.locator('.leaflet-container[data-base-map]')).toBeVisible();
      await map.locator('.leaflet-pm-icon-polygon').click();
      const corners: [number, number][] = [
        [0.4, 0.4],
        [0.6, 0.4],
        [0.6, 0.6],
        [0.4, 0.6],
        [0.4, 0.4],
      ];
      for (const [x, y] of corners) await clickAt(page, map, x, y);
      await expect(map.locator('.leaflet-overlay-pane path')).toHaveCount(1);
      await dialog.getByRole('button', { name: 'Применить' }).click();
      await expect(dialog).toHaveCount(0);

      await expect(geometry.getByText('Это обязательное поле')).toHaveCount(0);
      await expect(geometry.getByTestId('geometry-preview').locator('.leaflet-overlay-pane path')).toHaveCount(1);
      // the preview is the base map as a still picture: no zoom buttons
      await expect(geometry.getByTestId('geometry-preview').locator('.leaflet-container[data-base-map]')).toBeVisible();
      await expect(geometry.getByTestId('geometry-preview').locator('.leaflet-control-zoom')).toHaveCount(0);
      await geometry.getByRole('button', { name: 'Текст WKT' }).click();
      const wkt = geometry.getByTestId('geometry-wkt-geom');
      await expect(wkt).toHaveValue(/^POLYGON\(\(30\.\d+ 59\.\d+(, 30\.\d+ 59\.\d+){4}\)\)$/);
      const text = await wkt.inputValue();
      const points = /^POLYGON\(\((.*)\)\)$/.exec(text)![1].split(', ');
      expect(points[0]).toBe(points[4]);

      await page.getByRole('button', { name: 'Сохранить' }).click();
      await expect(page).toHaveURL(/\/handbooks\/table\/district$/);
      await expect(page.getByTestId('handbook-table').getByText('Район нарисованный')).toBeVisible();

      // the server keeps the drawn border as a polygon; the record goes away again
      const headers = { authorization: `Bearer ${await adminToken(request)}` };
      const config = { type: 'district' };
      const listed = await request.post('/api/table/list', { data: { config, filters: { district_name: 'Район нарисованный' } }, headers });
      const [row] = ((await listed.json()) as { list: { district_id: number; geom: string }[] }).list;
      expect(row.geom).toMatch(/^POLYGON\(\(30\.\d+ 59\.\d+/);
      const deleted = await request.post('/api/table/list/delete', { data: { config, ids: [row.district_id] }, headers });
      expect(deleted.status()).toBe(200);
    } finally {
      await setSections(request, { 'handbooks.district': false });
    }
  });
});
