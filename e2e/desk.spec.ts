import { expect, test, type Locator, type Page } from '@playwright/test';
import { signIn } from './helpers';

/** An ordinary desk's screen: wide handbooks and reports must stay usable without a horizontal page scroll. */
test.use({ viewport: { width: 1440, height: 900 } });

const WIDTH = 1440;

async function expectOnScreen(element: Locator): Promise<void> {
  await expect(element).toBeVisible();
  const box = (await element.boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(WIDTH);
}

const pageScrollWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth);

/** A Moscow day (playwright.config.ts's zone) as DD.MM.YYYY, `days` from today. */
function moscowDay(days: number): { text: string; weekday: number } {
  const moscow = new Date(Date.now() + 3 * 3_600_000 + days * 86_400_000);
  const pad = (n: number) => String(n).padStart(2, '0');
  return { text: `${pad(moscow.getUTCDate())}.${pad(moscow.getUTCMonth() + 1)}.${moscow.getUTCFullYear()}`, weekday: moscow.getUTCDay() };
}

test.describe('at 1440 × 900', () => {
  for (const type of ['driver', 'vehicles', 'routes']) {
    test(`the ${type} handbook keeps its toolbar on the screen and scrolls its table in its own box`, async ({ page }) => {
      await signIn(page, 'admin');
      await page.goto(`/handbooks/table/${type}`);
      const table = page.getByTestId('handbook-table');
      // the small demo data set may leave a handbook empty: its header row still has every column
      await expect(table.locator('thead th').last()).toBeAttached({ timeout: 60_000 });
      for (const button of [
        page.getByTestId('handbook-create'),
        page.getByRole('button', { name: 'Импорт' }),
        page.getByTestId('handbook-export'),
      ]) {
        await expectOnScreen(button);
      }
      expect(await pageScrollWidth(page)).toBeLessThanOrEqual(WIDTH);
      const lastHeader = table.locator('thead th').last();
      await lastHeader.scrollIntoViewIfNeeded();
      await expectOnScreen(lastHeader);
      await expectOnScreen(page.getByTestId('handbook-export'));
    });
  }

  test("a wide report's last column is reached by scrolling its table, the filter bar stays", async ({ page }) => {
    await signIn(page, 'admin');
    await page.goto('/vehicle-work-data');
    await page.getByTestId('report-build').click();
    const table = page.getByTestId('report-table');
    await expect(table.locator('tbody tr').first()).toBeVisible();
    const box = table.locator('xpath=..');
    expect(await box.evaluate((element) => element.scrollWidth > element.clientWidth)).toBe(true);
    expect(await pageScrollWidth(page)).toBeLessThanOrEqual(WIDTH);
    await box.evaluate((element) => element.scrollTo({ left: element.scrollWidth }));
    await expectOnScreen(table.locator('thead th').last());
    await expectOnScreen(page.getByTestId('report-build'));
  });

  test("the period shows its preset while the dates are the preset's; «Прошлая неделя» is last Monday to Sunday", async ({ page }) => {
    await signIn(page, 'admin');
    await page.goto('/vehicle-work-data');
    const preset = page.getByTestId('report-period').getByRole('combobox');
    await expect(preset).toHaveText('Последние 7 дней');
    await preset.click();
    await page.getByRole('option', { name: 'Прошлая неделя' }).click();
    await expect(preset).toHaveText('Прошлая неделя');
    const sinceMonday = (moscowDay(0).weekday + 6) % 7;
    await expect(page.getByRole('group', { name: 'С' })).toContainText(moscowDay(-sinceMonday - 7).text);
    await expect(page.getByRole('group', { name: 'По' })).toContainText(moscowDay(-sinceMonday - 1).text);
    expect(moscowDay(-sinceMonday - 7).weekday).toBe(1);
    // dates of no preset show none
    await page.goto('/vehicle-work-data?from=2025-01-01T21%3A00%3A00.000Z&to=2025-01-05T20%3A59%3A59.000Z');
    await expect(page.getByRole('group', { name: 'С' })).toContainText('02.01.2025');
    await expect(preset).not.toHaveText(/Сегодня|Вчера|недел|дней|месяц/);
  });

  test('the live map has a legend of the vehicle colours', async ({ page }) => {
    await signIn(page, 'admin');
    await page.goto('/map');
    const legend = page.getByTestId('map-legend');
    await expect(legend).toBeVisible();
    await expect(legend).toContainText('Цвета ТС');
    await expect(legend.getByTestId('map-legend-entry')).toHaveCount(6);
    await expect(legend).toContainText('МК — малый класс');
    await expect(legend).toContainText('Нет связи');
  });
});
