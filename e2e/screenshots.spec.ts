import { expect, test, type Page } from '@playwright/test';
import { ACCOUNTS, fillLogin, signIn, submitButton } from './helpers';

/**
 * The README's pictures of the key screens, taken from the running product on every e2e run, so they show what
 * the console is today (docs/screenshots/*.png).
 */
const shot = (page: Page, name: string) => page.screenshot({ path: `docs/screenshots/${name}.png` });

test.describe('screenshots of the key screens for the README', () => {
  test.use({ viewport: { width: 1440, height: 900 } });

  test('the live map, a report and a handbook of the console', async ({ page }) => {
    await signIn(page, 'admin');
    await page.goto('/map');
    await expect(page.getByTestId('map-vehicles-canvas')).toBeVisible();
    await expect
      .poll(async () => Number(await page.getByTestId('map').getAttribute('data-vehicle-count')), { timeout: 15_000 })
      .toBeGreaterThan(0);
    await shot(page, 'map');

    await page.goto('/adas/incidents-distribution');
    await page.getByTestId('report-build').click();
    await expect(page.getByTestId('report-table').locator('tbody tr').first()).toBeVisible();
    await shot(page, 'report');

    await page.goto('/handbooks/table/routes');
    await expect(page.locator('tbody tr').first()).toBeVisible();
    await shot(page, 'handbook');
  });
});

test.describe('screenshot of the field app', () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test("the controller's phone", async ({ page }) => {
    await page.goto('/m/');
    await fillLogin(page, 'controller', ACCOUNTS.controller);
    await submitButton(page).click();
    await expect(page.getByTestId('mobile-app-bar')).toBeVisible();
    await expect(page.getByRole('progressbar')).toHaveCount(0, { timeout: 15_000 });
    await shot(page, 'field-app');
  });
});
