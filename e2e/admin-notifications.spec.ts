import { expect, test } from '@playwright/test';
import { loginViaUi } from './helpers';

/**
 * The bell. No HTTP route creates a notification (they are raised server-side, e.g. by an ADAS incident of
 * grade 3 or more, which nothing in the demo writes), so the real server is seen in its zero state; the
 * states with notifications are driven by stubbed answers of the same three calls.
 */
const item = (id: number, isNew: boolean, link: string | null) => ({
  id,
  at: '2025-03-01T09:15:00Z',
  type: 'video_ready',
  severity: 'info',
  title: `Видео по запросу № ${id} готово`,
  body: '',
  link,
  isNew,
});

test.describe('notifications bell', () => {
  // The simulator may raise a grade-3 incident (a notification for every user) at any moment, so the real
  // server's count is read, not assumed: the badge shows it and the list opens in its success state.
  test('real server: the badge shows the polled count; the list opens in its success state', async ({ page }) => {
    const polled = page.waitForResponse('**/api/v1/events/ring/count');
    await loginViaUi(page, 'admin');
    const { count } = (await (await polled).json()) as { count: number };
    expect(Number.isInteger(count) && count >= 0).toBe(true);
    const bell = page.getByTestId('notification-bell');
    await expect(bell).toHaveAttribute('data-count', /^\d+$/);
    const listed = page.waitForResponse('**/api/v1/events/ring/list**');
    await bell.click();
    const list = await listed;
    expect(list.status()).toBe(200);
    const state = page.getByTestId('notification-state');
    await expect(state).toHaveAttribute('data-state', 'success');
    const { list: items } = (await list.json()) as { list: unknown[] };
    if (items.length === 0) {
      await expect(state).toContainText('Уведомлений нет');
      await expect(page.getByTestId('notification-mark-all')).toBeDisabled();
    } else {
      await expect(state).not.toContainText('Уведомлений нет');
    }
  });

  test('stubbed: badge, new items highlighted, type filter, mark all viewed zeroes the count, a link is followed', async ({ page }) => {
    let count = 3;
    let viewed = false;
    await page.route('**/api/v1/events/ring/count', (route) => route.fulfill({ json: { count } }));
    await page.route('**/api/v1/events/ring/list**', (route) => {
      const list = [item(12, !viewed, '/journal/useractions'), item(11, !viewed, null), item(10, false, '/about')];
      route.fulfill({ json: { list, count: list.length, new_list: viewed ? [] : [12, 11] } });
    });
    await page.route('**/api/v1/events/ring/viewed', (route) => {
      viewed = true;
      count = 0;
      route.fulfill({ json: { count: 0 } });
    });
    await loginViaUi(page, 'admin');
    const bell = page.getByTestId('notification-bell');
    await expect(bell).toHaveAttribute('data-count', '3');
    await expect(page.getByTestId('notification-badge')).toContainText('3');

    await bell.click();
    const items = page.getByTestId('notification-item');
    await expect(items).toHaveCount(3);
    await expect(page.locator('[data-testid="notification-item"][data-new="true"]')).toHaveCount(2);
    await page.waitForTimeout(400); // the popover's grow transition
    await page.screenshot({ path: 'test-results/screens/bell-popover-items.png' });
    const typed = page.waitForRequest(
      (r) => r.url().includes('/api/v1/events/ring/list') && new URL(r.url()).searchParams.get('type') === 'video_ready',
    );
    await page.getByLabel('Тип').click();
    await page.getByRole('option', { name: 'Видео готово' }).click();
    await typed;

    await page.getByTestId('notification-mark-all').click();
    await expect(bell).toHaveAttribute('data-count', '0');
    await expect(page.locator('[data-testid="notification-item"][data-new="true"]')).toHaveCount(0);

    await items.first().click();
    await expect(page).toHaveURL('/journal/useractions');
    await expect(page.getByTestId('notification-popover')).toHaveCount(0);
  });

  test('stubbed: a failed list shows the failure state and retries', async ({ page }) => {
    let fail = true;
    await page.route('**/api/v1/events/ring/list**', (route) =>
      fail
        ? route.fulfill({ status: 500, json: { messages: ['internal_error'] } })
        : route.fulfill({ json: { list: [], count: 0, new_list: [] } }),
    );
    await loginViaUi(page, 'viewer');
    await page.getByTestId('notification-bell').click();
    const state = page.getByTestId('notification-state');
    await expect(state).toHaveAttribute('data-state', 'failure');
    await expect(state).toContainText('Не удалось загрузить уведомления');
    fail = false;
    await state.getByRole('button', { name: 'Повторить' }).click();
    await expect(state).toHaveAttribute('data-state', 'success');
  });
});
