import { gzipSync } from 'node:zlib';
import { expect, test } from '@playwright/test';

/** The login page must not wait for react-admin: it loads only the small entry chunks. */
const LOGIN_JS_BUDGET_GZIP = 220 * 1024;

test('the login page loads little JavaScript, and none of react-admin', async ({ page }, testInfo) => {
  const scripts: { url: string; gzip: number }[] = [];
  page.on('response', async (response) => {
    if (response.request().resourceType() !== 'script' && !response.url().endsWith('.js')) return;
    const body = await response.body().catch(() => Buffer.alloc(0));
    scripts.push({ url: new URL(response.url()).pathname, gzip: gzipSync(body, { level: 9 }).length });
  });
  await page.goto('/');
  await expect(page.getByTestId('login-submit')).toBeVisible();
  await page.waitForLoadState('networkidle');

  const total = scripts.reduce((sum, script) => sum + script.gzip, 0);
  const report = scripts.map((s) => `${s.url} ${(s.gzip / 1024).toFixed(1)} KB`).join('\n');
  await testInfo.attach('login-page-js.txt', { body: `${report}\ntotal gzip ${(total / 1024).toFixed(1)} KB\n` });
  console.log(`login page JavaScript (gzip -9): ${(total / 1024).toFixed(1)} KB in ${scripts.length} files\n${report}`);

  expect(scripts.some((script) => /ConsoleApp/.test(script.url))).toBe(false);
  expect(total).toBeLessThan(LOGIN_JS_BUDGET_GZIP);
});
