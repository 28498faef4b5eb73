import { test } from '@playwright/test';
import { loginViaUi } from './helpers';

/** Screenshots of the main states, for a person to look at (written to test-results/screens). */
test.describe('screenshots', () => {
  test.use({ viewport: { width: 1366, height: 768 } });

  test('login, shell, about, access denied', async ({ page }) => {
    const shot = (name: string) => page.screenshot({ path: `test-results/screens/${name}.png` });
    await page.goto('/');
    await page.getByTestId('login-submit').click();
    await shot('login-required');
    await page.goto('/');
    await page.getByTestId('login-submit').waitFor();
    await shot('login');
    await loginViaUi(page, 'admin');
    await shot('shell-admin');
    await page.goto('/about');
    await page.getByTestId('about-page').waitFor();
    await shot('about');
    await page.goto('/access-denied');
    await page.getByTestId('access-denied').waitFor();
    await shot('access-denied');
  });
});
