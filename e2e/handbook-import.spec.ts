import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { HANDBOOKS } from '../schemas/index';
import { ACCOUNTS, signIn } from './helpers';

/** The import dialog of the handbook screen (spec section 2; issue: a progress bar and the per-row error list). */

async function stopsNamed(request: APIRequestContext, text: string): Promise<string[]> {
  const login = await request.post('/api/v1/auth/login', { data: { username: 'admin', password: ACCOUNTS.admin } });
  const { token } = (await login.json()) as { token: string };
  const response = await request.post('/api/table/list', {
    data: { config: { type: 'stops' }, filters: { stop_name: text }, perPage: 100 },
    headers: { authorization: `Bearer ${token}` },
  });
  expect(response.status()).toBe(200);
  return ((await response.json()) as { list: { stop_name: string }[] }).list.map((row) => row.stop_name).sort();
}

const csv = (lines: string[][]) =>
  Buffer.from(`${[HANDBOOKS.stops.import.headers, ...lines].map((cells) => cells.join(';')).join('\r\n')}\r\n`, 'utf8');

const rows = (page: Page) => page.getByTestId('handbook-table').locator('tbody tr');

async function openImport(page: Page) {
  await page.getByTestId('handbook-import').click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByText('Импорт: Остановки')).toBeVisible();
  return dialog;
}

test.describe('handbook import', () => {
  test.describe.configure({ timeout: 90_000 });

  test('a CSV file of stops is imported and its rows show in the list', async ({ page, request }) => {
    const mark = `Импорт-e2e-${Date.now()}`;
    await signIn(page, 'admin');
    await page.goto('/handbooks/table/stops');
    await expect(rows(page).first()).toBeVisible();

    const dialog = await openImport(page);
    // what the file must look like: the headers and example row, a template to download
    for (const header of HANDBOOKS.stops.import.headers)
      await expect(dialog.getByTestId('handbook-import-format').getByRole('columnheader', { name: header, exact: true })).toBeVisible();
    const template = await Promise.all([page.waitForEvent('download'), dialog.getByTestId('handbook-import-template').click()]).then(
      ([download]) => download,
    );
    expect(template.suggestedFilename()).toBe('stops-template.csv');

    await dialog.getByTestId('handbook-import-file').setInputFiles({
      name: 'stops.csv',
      mimeType: 'text/csv',
      buffer: csv([
        ['', `${mark} Альфа`, 'e2e', '59.93001', '30.36001', 'true'],
        ['', `${mark} Бета`, '', '59.93002', '30.36002', 'false'],
      ]),
    });
    await expect(dialog.getByTestId('handbook-import-file-name')).toContainText('stops.csv');
    await dialog.getByTestId('handbook-import-upload').click();
    await expect(dialog.getByTestId('handbook-import-done')).toBeVisible();
    await expect(dialog.getByTestId('handbook-import-rows')).toHaveText('2');
    await expect(dialog.getByTestId('handbook-import-inserted')).toHaveText('2');
    await dialog.getByRole('button', { name: 'Закрыть' }).click();
    await expect(dialog).toBeHidden();

    // the list was refreshed: newest first, the two new stops on top
    await expect(rows(page).filter({ hasText: `${mark} Альфа` })).toHaveCount(1);
    await expect(rows(page).filter({ hasText: `${mark} Бета` })).toHaveCount(1);
    expect(await stopsNamed(request, mark)).toEqual([`${mark} Альфа`, `${mark} Бета`]);
  });

  test('a file with one bad row is refused with the row-numbered error and changes nothing', async ({ page, request }) => {
    const mark = `Импорт-плохой-${Date.now()}`;
    await signIn(page, 'admin');
    await page.goto('/handbooks/table/stops');
    await expect(rows(page).first()).toBeVisible();
    const firstBefore = (await rows(page).first().textContent()) ?? '';

    const dialog = await openImport(page);
    await dialog.getByTestId('handbook-import-file').setInputFiles({
      name: 'bad-stops.csv',
      mimeType: 'text/csv',
      buffer: csv([
        ['', `${mark} хорошая`, '', '59.9', '30.3', 'true'],
        ['', `${mark} плохая`, '', 'север', '30.3', 'true'],
      ]),
    });
    await dialog.getByTestId('handbook-import-upload').click();
    const failed = dialog.getByTestId('handbook-import-failed');
    await expect(failed).toBeVisible();
    await expect(failed).toContainText('Импорт не выполнен: данные не изменены');
    const errors = dialog.getByTestId('handbook-import-error');
    await expect(errors).toHaveCount(1);
    // the header is line 1: the bad row is line 3 of the file
    await expect(errors.first().locator('td').nth(0)).toHaveText('3');
    await expect(errors.first().locator('td').nth(1)).toHaveText('stop_lat');
    await expect(errors.first().locator('td').nth(2)).not.toBeEmpty();
    await dialog.getByRole('button', { name: 'Закрыть' }).click();

    await expect(rows(page).first()).toHaveText(firstBefore);
    expect(await stopsNamed(request, mark)).toEqual([]);
  });

  test('vehicle replacement offers no import', async ({ page }) => {
    await signIn(page, 'admin');
    await page.goto('/handbooks/table/replacevehicle');
    await expect(page.getByTestId('handbook-create')).toBeVisible();
    await expect(page.getByTestId('handbook-import')).toHaveCount(0);
  });
});
