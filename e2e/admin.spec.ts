import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { DELETE, READ } from '../src/shared/permissions';
import { ACCOUNTS, fillLogin, loginViaUi, menuPaths, submitButton } from './helpers';

/** Administration (users, roles) through the console, against the real server. */
const unique = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;

async function adminToken(request: APIRequestContext): Promise<string> {
  const response = await request.post('/api/v1/auth/login', { data: { username: 'admin', password: ACCOUNTS.admin } });
  expect(response.status()).toBe(200);
  return ((await response.json()) as { token: string }).token;
}

async function api<T>(request: APIRequestContext, method: 'post' | 'put', url: string, data: unknown): Promise<T> {
  const token = await adminToken(request);
  const response = await request[method](url, { data, headers: { authorization: `Bearer ${token}` } });
  expect(response.status(), await response.text()).toBe(200);
  return (await response.json()) as T;
}

async function loginAs(page: Page, username: string, password: string): Promise<void> {
  await page.goto('/');
  await fillLogin(page, username, password);
  await submitButton(page).click();
}

async function logout(page: Page): Promise<void> {
  await page.locator('header .RaUserMenu-userButton').click();
  await page.getByRole('menuitem', { name: 'Выйти' }).click();
  await expect(submitButton(page)).toBeVisible();
}

/** Unfolds a group of the permission matrix (groups that grant something start unfolded). */
async function openGroup(page: Page, group: string): Promise<void> {
  const toggle = page.getByTestId(`matrix-toggle-${group}`);
  if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
}

/** Picks an option of react-admin's autocomplete (roles of the user form, users of the journal). */
async function pickOption(page: Page, label: string, option: string): Promise<void> {
  await page.getByLabel(label).first().click();
  await page.getByLabel(label).first().fill(option.slice(0, 6));
  await page.getByRole('option', { name: option }).click();
}

test.describe('administration', () => {
  test.use({ viewport: { width: 1366, height: 900 } });
  test.describe.configure({ timeout: 90_000 });

  test('a narrow role made in the matrix, a user with it: exactly its menu; the journal shows the creations and the login', async ({
    page,
  }) => {
    const id = unique();
    const roleName = `Аудитор ${id}`;
    const username = `audit${id}`;
    const password = 'audit123';
    await loginViaUi(page, 'admin');

    // the role: only users read and the user-actions journal read, ticked in the matrix
    await page.goto('/roles');
    await page.getByTestId('role-create').click();
    await page.getByRole('textbox', { name: 'Название' }).fill(roleName);
    await openGroup(page, 'administration');
    await page.getByTestId('perm-/users-read').check();
    await openGroup(page, 'journals');
    await page.getByTestId('perm-/journal/useractions-read').check();
    // the named codes follow the matrix: 22 needs /roles read too, so it stays half-ticked
    await expect(page.getByTestId('code-22')).not.toBeChecked();
    await expect(page.getByTestId('matrix-group-administration')).toContainText('1 из 2');
    await page.getByRole('button', { name: 'Сохранить' }).click();
    await expect(page).toHaveURL('/roles');
    const roleRow = page.getByTestId('roles-table').locator('tr', { hasText: roleName });
    await expect(roleRow).toContainText('0');

    // the user, through the users form
    await page.goto('/users');
    await page.getByTestId('user-create').click();
    await page.getByLabel('Логин').first().fill(username);
    await page.getByLabel('Электронная почта').fill(`${username}@example.test`);
    await page.getByLabel('Пароль').first().fill(password);
    await page.getByLabel('Фамилия').fill('Аудиторов');
    await page.getByLabel('Имя', { exact: true }).fill('Артём');
    await page.getByLabel('Должность').fill('Аудитор');
    await pickOption(page, 'Роли', roleName);
    await page.getByRole('button', { name: 'Сохранить' }).click();
    await expect(page).toHaveURL('/users');
    await expect(page.getByTestId('users-table').locator('tr', { hasText: username })).toContainText(roleName);

    // that user sees exactly the journal of user actions, the users, and /about
    await logout(page);
    await loginAs(page, username, password);
    await expect(page.getByTestId('console-menu')).toBeVisible();
    expect(await menuPaths(page)).toEqual(['/journal/useractions', '/users', '/about']);
    const labels = await page.getByTestId('console-menu').getByTestId('menu-entry').allInnerTexts();
    expect(labels.map((text) => text.trim())).toEqual(['Действия пользователей', 'Пользователи', 'О системе']);
    // read only: no create, block or edit on the users list
    await page.goto('/users');
    await expect(page.getByTestId('users-table')).toBeVisible();
    await expect(page.getByTestId('user-create')).toHaveCount(0);
    await expect(page.getByTestId('user-block')).toHaveCount(0);
    await page.goto('/roles');
    await expect(page).toHaveURL('/access-denied');

    // the administrator finds the role and the user created, and that user's login, in the journal
    await logout(page);
    await loginViaUi(page, 'admin');
    await page.goto('/journal/useractions');
    const table = page.getByTestId('report-table');
    await expect(table.locator('tbody tr').first()).toBeVisible();
    await expect(table.locator('tr', { hasText: 'Роль №' }).filter({ hasText: 'Создание' }).first()).toBeVisible();
    await expect(table.locator('tr', { hasText: 'Пользователь №' }).filter({ hasText: 'Создание' }).first()).toBeVisible();
    // the user chosen in the filter modal (searched by name) narrows the journal to that user's actions
    await page.getByTestId('report-picker-user').click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('textbox').fill(username);
    await dialog.getByRole('option', { name: username }).click();
    await dialog.getByRole('button', { name: 'Выбрать' }).click();
    await page.getByTestId('report-build').click();
    await expect(table.locator('tbody tr', { hasText: 'Вход' })).toHaveCount(1);
    await expect(table.locator('tbody tr').first()).toContainText(username);
  });

  test("the user form shows the server's and the client's messages, translated", async ({ page }) => {
    const id = unique();
    await loginViaUi(page, 'admin');
    await page.goto('/users/create');
    const form = page.getByTestId('user-form');
    await page.getByLabel('Логин').first().fill('operator');
    await page.getByLabel('Электронная почта').fill(`new${id}@example.test`);
    await page.getByLabel('Пароль').first().fill('secret123');
    await page.getByRole('button', { name: 'Сохранить' }).click();
    // refused by the server: under the field, and in the message stack
    await expect(form.getByText('Пользователь с таким именем уже существует')).toBeVisible();
    await expect(page.getByTestId('message').filter({ hasText: 'Пользователь с таким именем уже существует' })).toBeVisible();
    await expect(page).toHaveURL('/users/create');

    await page.getByLabel('Логин').first().fill(`new${id}`);
    await page.getByLabel('Электронная почта').fill('operator@demo.local');
    await page.getByRole('button', { name: 'Сохранить' }).click();
    await expect(form.getByText('Пользователь с таким адресом электронной почты уже существует')).toBeVisible();

    // checked here with the same texts as the server's codes
    await page.getByLabel('Логин').first().fill('ab');
    await page.getByLabel('Пароль').first().fill('short');
    await page.getByLabel('Электронная почта').fill('');
    await page.getByRole('button', { name: 'Сохранить' }).click();
    await expect(form.getByText('Имя не должно быть короче трёх символов')).toBeVisible();
    await expect(form.getByText('Пароль должен содержать не менее 6 символов: буквы и цифры')).toBeVisible();
    await expect(form.getByText('Укажите адрес электронной почты')).toBeVisible();
    await page.getByLabel('Пароль').first().fill('onlyletters');
    await expect(form.getByText('Пароль должен содержать не менее 6 символов: буквы и цифры')).toBeVisible();
  });

  test('a blocked user is refused at login; unblocked, they log in again; delete asks first', async ({ page, request }) => {
    const id = unique();
    const username = `block${id}`;
    await api(request, 'post', '/api/v1/users/', {
      username,
      email: `${username}@example.test`,
      password: 'block123',
      firstName: 'Блок',
      lastName: 'Тестов',
      roles: [],
    });
    await loginViaUi(page, 'admin');
    await page.goto('/users');
    await page.getByPlaceholder('Поиск по логину, имени, почте').fill(username);
    const row = page.getByTestId('users-table').locator('tbody tr', { hasText: username });
    await expect(page.getByTestId('users-table').locator('tbody tr')).toHaveCount(1);
    await row.getByTestId('user-block').click();
    await expect(page.getByRole('dialog')).toContainText(`Заблокировать пользователя ${username}?`);
    await page.getByRole('dialog').getByRole('button', { name: 'Заблокировать' }).click();
    await expect(row.getByTestId('user-blocked')).toBeVisible();

    await logout(page);
    await loginAs(page, username, 'block123');
    await expect(page.getByText('Пользователь заблокирован')).toBeVisible();
    await expect(page.getByTestId('console-menu')).toHaveCount(0);

    await loginViaUi(page, 'admin');
    await page.goto('/users');
    await page.getByPlaceholder('Поиск по логину, имени, почте').fill(username);
    await row.getByTestId('user-unblock').click();
    await page.getByRole('dialog').getByRole('button', { name: 'Разблокировать' }).click();
    await expect(row.getByTestId('user-blocked')).toHaveCount(0);

    // delete from the edit form, after a confirmation (the list refreshes after the unblock: a click that lands
    // while its rows are replaced is lost, so it is tried again)
    await expect(async () => {
      await row.click();
      await expect(page).toHaveURL(/\/users\/edit\/\d+$/, { timeout: 2000 });
    }).toPass({ timeout: 10_000 });
    await expect(page.getByLabel('Электронная почта')).toHaveAttribute('readonly', '');
    await page.getByTestId('delete-button').click();
    await expect(page.getByRole('dialog')).toContainText(`Удалить пользователя ${username}?`);
    await page.getByRole('dialog').getByRole('button', { name: 'Удалить' }).click();
    await expect(page).toHaveURL(/\/users(\?|$)/);
    await page.getByPlaceholder('Поиск по логину, имени, почте').fill(username);
    await expect(page.getByText(/результаты не найдены/)).toBeVisible();
  });

  test('the list searches, sorts and pages; the summary counts users', async ({ page }) => {
    await loginViaUi(page, 'admin');
    await page.goto('/users');
    await expect(page.getByTestId('users-info-total')).toHaveText(/^\d+$/);
    await expect(page.getByTestId('users-info-blocked')).toHaveText(/^[1-9]\d*$/);
    const first = page.getByTestId('users-table').locator('tbody tr').first();
    await expect(first).toContainText('admin');
    await page.getByTestId('users-table').getByText('Логин', { exact: true }).click();
    await expect(first).not.toContainText('admin@demo.local');
    await page.getByPlaceholder('Поиск по логину, имени, почте').fill('контролёр');
    await expect(page.getByTestId('users-table').locator('tbody tr')).toHaveCount(1);
    await expect(page.getByTestId('users-table').locator('tbody tr')).toContainText('controller');
    await page.getByPlaceholder('Поиск по логину, имени, почте').fill('');
    await page.getByRole('combobox', { name: /Строк на странице/ }).click();
    await expect(page.getByRole('option', { name: '30' })).toBeVisible();
    await page.getByRole('option', { name: '10', exact: true }).click();
    await expect(page.getByText(/^1-\d+ из \d+$/)).toBeVisible();
  });

  test('a system role is read-only with a note; a reader sees roles and users without write buttons', async ({ page }) => {
    await loginViaUi(page, 'admin');
    await page.goto('/roles');
    await expect(page.getByTestId('roles-table').locator('tr', { hasText: 'Администратор' }).getByTestId('system-role')).toBeVisible();
    await page.getByTestId('roles-table').getByText('Администратор', { exact: true }).click();
    await expect(page.getByTestId('system-role-note')).toContainText('Системную роль нельзя изменить или удалить');
    await expect(page.getByRole('button', { name: 'Сохранить' })).toHaveCount(0);
    await expect(page.getByTestId('delete-button')).toHaveCount(0);
    await expect(page.getByTestId('code-1')).toBeChecked();
    await expect(page.getByTestId('code-1')).toBeDisabled();

    await logout(page);
    await loginViaUi(page, 'viewer');
    await page.goto('/roles');
    await expect(page.getByTestId('role-create')).toHaveCount(0);
    await page.getByTestId('roles-table').getByText('Диспетчер', { exact: true }).click();
    await expect(page.getByText('Только просмотр: у вас нет права изменять роли.')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Сохранить' })).toHaveCount(0);
    await page.goto('/users');
    await expect(page.getByTestId('users-table')).toBeVisible();
    await expect(page.getByTestId('user-create')).toHaveCount(0);
    await page.goto('/users/create');
    await expect(page).toHaveURL('/access-denied');
  });

  test("a role's named code sets and clears its bits; saving refreshes the console's own permissions", async ({ page, request }) => {
    const id = unique();
    const role = await api<{ id: number }>(request, 'post', '/api/v1/roles', { name: `Коды ${id}`, permissions: { '/users': READ } });
    await loginViaUi(page, 'admin');
    await page.goto(`/roles/${role.id}`);
    await expect(page.getByTestId('code-22')).not.toBeChecked();
    await page.getByTestId('code-22').check();
    await openGroup(page, 'administration');
    await expect(page.getByTestId('perm-/roles-read')).toBeChecked();
    await page.getByTestId('code-20').check();
    await expect(page.getByTestId('perm-/users-create')).toBeChecked();
    await expect(page.getByTestId('perm-/roles-update')).toBeChecked();
    await page.getByTestId('code-20').uncheck();
    await expect(page.getByTestId('perm-/users-create')).not.toBeChecked();
    await page.getByTestId('perm-/users-delete').check();
    const refreshed = page.waitForRequest('**/api/v1/auth/update-permissions');
    await page.getByRole('button', { name: 'Сохранить' }).click();
    await refreshed;
    await expect(page).toHaveURL('/roles');
    const token = await adminToken(request);
    const saved = (await (await request.get(`/api/v1/roles/${role.id}`, { headers: { authorization: `Bearer ${token}` } })).json()) as {
      permissions: Record<string, number>;
    };
    expect(saved.permissions).toEqual({ '/users': READ | DELETE, '/roles': READ });
  });
});
