import { expect, test } from '@playwright/test';
import { loginViaUi } from './helpers';

/** A report built from its declaration: /adas/incidents-dynamic over the demo's incident history. */
test.describe('reports', () => {
  test.describe.configure({ timeout: 60_000 });

  test('the ADAS incidents report waits for «Сформировать», then shows its chart, numbers and table', async ({ page }) => {
    await loginViaUi(page, 'admin');
    let calls = 0;
    page.on('request', (r) => {
      if (r.url().includes('/api/v1/reports/adas/incidents-dynamic?')) calls += 1;
    });
    await page.goto('/adas/incidents-dynamic');
    await expect(page.getByTestId('report-hint')).toBeVisible();
    await expect(page.getByRole('combobox', { name: 'Шаг' })).toContainText('День');
    expect(calls).toBe(0);

    const built = page.waitForResponse((r) => r.url().includes('/api/v1/reports/adas/incidents-dynamic?'));
    await page.getByTestId('report-build').click();
    expect((await built).status()).toBe(200);
    await expect(page.getByTestId('report-chart').locator('svg').first()).toBeVisible();
    const numbers = page.getByTestId('report-chart-table').locator('tbody tr');
    await expect(numbers.first()).toContainText(/^\d{2}\.\d{2}\.\d{4}/);
    await expect(page.getByTestId('report-table').locator('tbody tr').first()).toBeVisible();
    await expect(page.getByTestId('report-totals')).toContainText('Итого');
    const url = new URL(page.url());
    expect(url.searchParams.get('step')).toBe('day');
    expect(url.searchParams.get('from')).toBeTruthy();

    // one vehicle chosen in the filter modal narrows the report
    await page.getByTestId('report-picker-vehicle').click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('option').first().click();
    await dialog.getByRole('button', { name: 'Выбрать' }).click();
    const narrowed = page.waitForRequest(
      (r) => r.url().includes('/api/v1/reports/adas/incidents-dynamic?') && new URL(r.url()).searchParams.has('vehicle'),
    );
    await page.getByTestId('report-build').click();
    await narrowed;
    await expect(page.getByTestId('report-table').or(page.getByTestId('report-empty'))).toBeVisible();
    expect(new URL(page.url()).searchParams.get('vehicle')).toMatch(/^\d+$/);
  });
});
