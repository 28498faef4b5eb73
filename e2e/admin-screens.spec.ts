import { expect, test, type Page } from '@playwright/test';
import { signIn } from './helpers';

/** Screenshots of the administration screens, for a person to look at (test-results/screens). */
test.describe('administration screenshots', () => {
  test.use({ viewport: { width: 1366, height: 768 } });
  test.describe.configure({ timeout: 120_000 });
  const shot = (page: Page, name: string, fullPage = false) => page.screenshot({ path: `test-results/screens/${name}.png`, fullPage });

  test('users, user form, role matrix, settings, user-actions journal, bell', async ({ page }) => {
    await signIn(page, 'admin');
    await page.goto('/users');
    await expect(page.getByTestId('users-table')).toBeVisible();
    await expect(page.getByTestId('users-info-total')).not.toHaveText('—');
    await shot(page, 'users-list');

    await page.goto('/users/create');
    await expect(page.getByTestId('user-form')).toBeVisible();
    await page.getByLabel('Логин').first().fill('ab');
    await page.getByLabel('Пароль', { exact: false }).first().fill('abcdef');
    await page.getByRole('button', { name: 'Сохранить' }).click();
    await expect(page.getByText('Имя не должно быть короче трёх символов')).toBeVisible();
    await shot(page, 'user-form-errors');

    await page.goto('/roles');
    await expect(page.getByTestId('roles-table')).toBeVisible();
    await shot(page, 'roles-list', true);
    await page.getByTestId('roles-table').getByText('Диспетчер', { exact: true }).click();
    await expect(page.getByTestId('permission-matrix')).toBeVisible();
    await shot(page, 'role-codes');
    await page.getByTestId('matrix-toggle-administration').click();
    await page.getByTestId('permission-matrix').scrollIntoViewIfNeeded();
    await page.getByTestId('matrix-group-journals').scrollIntoViewIfNeeded();
    await page.mouse.wheel(0, 200);
    await shot(page, 'role-matrix');

    await page.goto('/system/navigation');
    await expect(page.getByTestId('settings-navigation')).toBeVisible();
    await shot(page, 'settings-navigation');
    await page.goto('/system/eis');
    await expect(page.getByTestId('settings-eis')).toBeVisible();
    await shot(page, 'settings-eis');
    await page.goto('/system/journals');
    await expect(page.getByTestId('settings-journals')).toBeVisible();
    await shot(page, 'settings-journals');

    // a write with a before and after for the journal's comparison view
    const retention = page.getByRole('spinbutton', { name: /Срок хранения журнала/ });
    await retention.fill(String(Number(await retention.inputValue()) === 400 ? 401 : 400));
    await page.getByRole('button', { name: 'Сохранить' }).click();
    await expect(page.getByText('Настройки сохранены')).toBeVisible();

    await page.goto('/journal/useractions');
    await expect(page.getByTestId('report-table')).toBeVisible();
    await page.getByTestId('report-table').locator('tbody tr', { hasText: 'Настройки' }).first().click();
    await expect(page.getByTestId('diff-table')).toBeVisible();
    await shot(page, 'journal-useractions');

    await page.getByTestId('notification-bell').click();
    await expect(page.getByTestId('notification-popover')).toBeVisible();
    await expect(page.getByTestId('notification-state')).toHaveAttribute('data-state', 'success');
    await page.waitForTimeout(400); // the popover's grow transition
    await shot(page, 'bell-popover');
  });
});
