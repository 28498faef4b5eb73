import { expect, test } from '@playwright/test';
import { signIn } from './helpers';

/**
 * On-board equipment in Chromium: a configuration made in the form, a vehicle group built by a
 * filter, the configuration rolled out to it over the simulated terminals' EGTS commands with the live
 * progress reaching performed for most and an error shown for a refusing one; the diagnostic screen
 * filtered to faulty units.
 */
test.describe.configure({ mode: 'serial' });

test('a configuration rolled out to a group built by filter: performed for most, an error for a refusing terminal', async ({ page }) => {
  test.setTimeout(210_000);
  await signIn(page, 'admin');

  await page.goto('/mnt-configuration/configurations');
  // A fresh demo has a managed fleet: the base configuration rolled out, its version 2 on a pilot group.
  await expect(page.getByTestId('configuration-Базовая-v1')).toContainText('Развёрнута');
  await expect(page.getByTestId('configuration-Экономия трафика-v1')).toContainText('Черновик');
  await page.getByTestId('configuration-create').click();
  await page.getByTestId('configuration-name').fill('Ночная E2E');
  await page.getByTestId('parameter-apn').fill('bus.e2e');
  await page.getByTestId('parameter-serverPort').fill('70000');
  await expect(page.getByTestId('configuration-save')).toBeDisabled();
  await expect(page.getByTestId('configuration-form')).toContainText('вне допустимого диапазона');
  await page.getByTestId('parameter-serverPort').fill('5162');
  await page.getByTestId('configuration-save').click();
  await expect(page.getByTestId('configuration-Ночная E2E-v1')).toContainText('Черновик');

  await page.goto('/mnt-configuration/vehicle-groups');
  await page.getByTestId('group-create').click();
  await page.getByTestId('group-name').fill('Без конфигурации E2E');
  await page.getByTestId('group-filter-configurations').click();
  const modal = page.getByRole('dialog').last();
  await modal.getByText('Без конфигурации', { exact: true }).click();
  await modal.getByRole('button', { name: 'Выбрать' }).click();
  await expect(page.getByTestId('group-preview')).toContainText(/В группу попадёт ТС: [1-9]/);
  await page.getByTestId('group-save').click();
  await expect(page.getByTestId('group-row-Без конфигурации E2E')).toBeVisible();
  await page.getByTestId('group-open-Без конфигурации E2E').click();

  await expect(page).toHaveURL(/\/mnt-configuration\/configuration\/\d+$/);
  await expect(page.getByTestId('rollout-group-count')).toContainText(/ТС в группе: [1-9]/);
  await page.getByLabel('Конфигурация').click();
  await page.getByRole('option', { name: 'Ночная E2E v1' }).click();
  await page.getByTestId('rollout-first-share').fill('100');
  await page.getByTestId('rollout-threshold').fill('100');
  await page.getByTestId('rollout-start').click();

  // Live progress: the simulated terminals confirm (performed), the refusing ones answer CC_ERROR (error).
  const performed = page.getByTestId('rollout-count-6');
  const errors = page.getByTestId('rollout-count-14');
  await expect(performed).toBeVisible({ timeout: 60_000 });
  await expect(errors).toBeVisible({ timeout: 60_000 });
  const count = async (chip: typeof performed) => Number((await chip.textContent())?.replace(/\D+/g, '') ?? 0);
  // a fifth of the small fleet's terminals refuse: as the connected ones answer, the performed outnumber the errors
  await expect.poll(async () => (await count(performed)) > (await count(errors)), { timeout: 90_000, intervals: [2_000] }).toBe(true);
  await expect(page.getByTestId('rollout-state')).toHaveText('Идёт');

  // The commands in error, with the terminal's refusal as the reason.
  await page.getByLabel('Статус').click();
  await page.getByRole('option', { name: 'Ошибка', exact: true }).click();
  await expect(page.getByTestId('command-row').first()).toContainText('Терминал отказал в выполнении команды');

  // The configuration is locked now: no edit, only a new version.
  await page.goto('/mnt-configuration/configurations');
  await expect(page.getByTestId('configuration-Ночная E2E-v1')).toContainText('Развёрнута');
  await expect(page.getByTestId('configuration-Ночная E2E-v1').getByRole('button', { name: 'Изменить' })).toHaveCount(0);
});

test('the diagnostic screen filtered to faulty units', async ({ page }) => {
  await signIn(page, 'admin');
  await page.goto('/vehicle-diagnostic?state=fault');
  const rows = page.locator('tbody tr');
  await expect(rows.first()).toContainText('Неисправность', { timeout: 20_000 });
  const states = await rows.evaluateAll((trs) => trs.map((tr) => tr.textContent ?? ''));
  expect(states.length).toBeGreaterThan(0);
  expect(states.every((text) => text.includes('Неисправность'))).toBe(true);
  expect(states.some((text) => /[A-Z]{3}-[A-Z]+/.test(text))).toBe(true);
});

test('a rollout history that cannot be read says so, not that there were no rollouts', async ({ page }) => {
  await signIn(page, 'admin');
  await page.route('**/api/v1/mnt/groups/*/rollouts', (route) => route.fulfill({ status: 500, json: { messages: ['internal_error'] } }));
  await page.goto('/mnt-configuration/vehicle-groups');
  await page.locator('[data-testid^="group-open-"]').first().click();
  await expect(page).toHaveURL(/\/mnt-configuration\/configuration\/\d+$/);
  await expect(page.getByText('Не удалось загрузить данные')).toBeVisible();
  await expect(page.getByText('Развёртываний ещё не было')).toHaveCount(0);
  // the group itself was read: its vehicles are counted
  await expect(page.getByTestId('rollout-group-count')).toContainText(/ТС в группе: [1-9]/);
});
