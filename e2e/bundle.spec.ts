import { expect, test } from '@playwright/test';
import { scriptsOverTheWire } from './helpers';

/** The login page must not wait for react-admin: it loads only the shell's chunks (about 167 KB gzipped). */
const LOGIN_JS_BUDGET_GZIP = 190 * 1024;

test('the login page loads little JavaScript, and none of react-admin', async ({ page }, testInfo) => {
  const scripts = await scriptsOverTheWire(page);
  await page.goto('/');
  await expect(page.getByTestId('login-submit')).toBeVisible();
  await page.waitForLoadState('networkidle');

  const total = scripts.reduce((sum, script) => sum + script.bytes, 0);
  const report = scripts.map((s) => `${s.url} ${(s.bytes / 1024).toFixed(1)} KB`).join('\n');
  await testInfo.attach('login-page-js.txt', { body: `${report}\ntotal over the wire ${(total / 1024).toFixed(1)} KB\n` });
  console.log(`login page JavaScript (over the wire): ${(total / 1024).toFixed(1)} KB in ${scripts.length} files\n${report}`);

  expect(scripts.some((script) => /ConsoleApp/.test(script.url))).toBe(false);
  expect(total).toBeLessThan(LOGIN_JS_BUDGET_GZIP);
});
