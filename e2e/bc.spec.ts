import { expect, test, type Page } from '@playwright/test';
import type { ListResponse } from '../src/shared/api';
import type { BcOptions, ControllerTask, TaskResultResponse } from '../src/shared/bc/tasks';
import { rateColor } from '../src/shared/bc/rate';
import { ACCOUNTS, boxesOf, fillLogin, overlapping, signIn, submitButton } from './helpers';

/**
 * Ticket control end to end: the demo controller's report on the phone (counts, two vehicle checks, a photo,
 * completed offline and sent once when the connection returns) reaching the desktop's /bc/result/{task}; an
 * order created on the calendar; the orders' list filtered, sorted, paged and deleted from; the route rate coloured by
 * the spec's gradient.
 */

const shot = (page: Page, name: string) => page.screenshot({ path: `test-results/screens/bc-${name}.png` });

async function apiToken(page: Page, username: keyof typeof ACCOUNTS): Promise<string> {
  const response = await page.request.post('/api/v1/auth/login', { data: { username, password: ACCOUNTS[username] } });
  return ((await response.json()) as { token: string }).token;
}

async function bcOptions(page: Page, headers: Record<string, string>): Promise<BcOptions> {
  return (await (await page.request.get('/api/v1/bc/options', { headers })).json()) as BcOptions;
}

/** The next GET of the orders' list whose query passes `check`. */
const listedOrders = (page: Page, check: (query: URLSearchParams) => boolean = () => true) =>
  page.waitForResponse((r) => {
    const url = new URL(r.url());
    return url.pathname === '/api/v1/bc/tasks' && r.request().method() === 'GET' && check(url.searchParams);
  });

const orderRows = (page: Page) => page.getByTestId('task-row');

const hex = (rgb: string) =>
  `#${(rgb.match(/\d+/g) ?? [])
    .slice(0, 3)
    .map((n) => Number(n).toString(16).padStart(2, '0'))
    .join('')}`;

test.describe('ticket control on the phone', () => {
  // one long flow (a report filled, completed offline, sent, then read on the desktop): 20–25 s on a quiet machine
  test.describe.configure({ timeout: 60_000 });
  test.use({
    viewport: { width: 390, height: 844 },
    isMobile: true,
    hasTouch: true,
    geolocation: { latitude: 59.9311, longitude: 30.3609 },
    permissions: ['geolocation'],
  });

  test('the controller fills the report with two vehicle checks and a photo, completes it offline, and it is sent once', async ({
    page,
    context,
    browser,
  }) => {
    const token = await apiToken(page, 'controller');
    const headers = { authorization: `Bearer ${token}` };
    const task = (await (await page.request.get('/api/v1/pass/controllertask/worker', { headers })).json()) as ControllerTask;
    expect(task.status).toBe('new');
    const loaded = (await (
      await page.request.get(`/api/v1/pass/controllertask/result/${task.id}`, { headers })
    ).json()) as TaskResultResponse;
    const [first, second] = loaded.tickets;

    await page.goto('/m/bc');
    await fillLogin(page, 'controller', ACCOUNTS.controller);
    await submitButton(page).click();
    await expect(page.getByTestId('bc-home')).toBeVisible();
    await expect(page.getByTestId('bc-task-line')).toContainText(`Задание № ${task.number}`);
    await expect(page.getByTestId('bc-menu-entry')).toHaveCount(4);
    await page.getByTestId('bc-menu-entry').filter({ hasText: 'Наряд-задание' }).click();
    await expect(page.getByTestId('work-order')).toContainText(task.number);
    const status = page.getByTestId('work-order').getByTestId('task-status');
    await expect(status).toHaveAttribute('data-status', 'new');
    const serverStatus = async () =>
      ((await (await page.request.get(`/api/v1/pass/controllertask/result/${task.id}`, { headers })).json()) as TaskResultResponse).task
        .status;
    // merely opening the report to look at it leaves the order new: no «В работе», no position sent
    let positions = 0;
    page.on('request', (r) => {
      if (r.method() === 'POST' && r.url().includes('/api/v1/auth/coord')) positions += 1;
    });
    await page.getByTestId('open-report').click();
    const report = page.getByTestId('controller-report');
    await expect(report).toContainText(`Задание наряда № ${task.id}`);
    await expect(page.getByTestId(`received-${first.id}`)).toBeVisible();
    await page.goBack();
    await expect(status).toHaveAttribute('data-status', 'new');
    await expect(status).toHaveText('Новое');
    expect(await serverStatus()).toBe('new');
    expect(positions).toBe(0);

    // the report's first entry starts the order («В работе»): the phone then posts its position
    const position = page.waitForRequest((r) => r.method() === 'POST' && r.url().includes('/api/v1/auth/coord'));
    await page.getByTestId('open-report').click();
    await expect(report).toContainText(`Задание наряда № ${task.id}`);
    // tickets received; a count that is not a number becomes 0
    await page.getByTestId(`received-${first.id}`).fill('10');
    expect((await position).postDataJSON()).toMatchObject({ lat: 59.9311, lon: 30.3609, accuracy: expect.any(Number) });
    await expect.poll(serverStatus).toBe('in_work');
    await page.getByTestId(`received-${second.id}`).fill('5');
    await page.getByTestId(`received-${loaded.tickets[2].id}`).fill('x');
    await expect(page.getByTestId(`received-${loaded.tickets[2].id}`)).toHaveValue('0');

    const pick = async (testId: string, option = 0) => {
      await page.getByTestId(testId).getByRole('combobox').click();
      await page.getByRole('option').nth(option).click();
    };
    // the first vehicle check
    await page.getByTestId('add-vehicle').click();
    await expect(page.getByTestId('vehicle-editor')).toBeVisible();
    await pick('check-route');
    await pick('check-depot', 1);
    await page.getByTestId('check-driver').fill('12345');
    await page.getByTestId(`sold-${first.id}`).fill('4');
    await page.getByTestId('check-kickout').fill('2');
    await page.getByTestId('seized-sk').fill('1');
    await page.getByTestId('check-ovd').fill('-3');
    await expect(page.getByTestId('check-ovd')).toHaveValue('0');
    await shot(page, 'vehicle-editor');
    // the back button closes the editor first
    await page.getByTestId('report-back').click();
    await expect(page.getByTestId('vehicle-editor')).toBeHidden();
    await expect(page.getByTestId('vehicle-check')).toHaveCount(1);

    // the second: the sold-ticket cap leaves it what the first did not sell of the tickets received
    await page.getByTestId('add-vehicle').click();
    await pick('check-route');
    await page.getByTestId(`sold-${first.id}`).fill('9');
    await expect(page.getByTestId(`sold-${first.id}`)).toHaveValue('6');
    await page.getByTestId(`sold-${second.id}`).fill('2');
    await page.getByTestId('check-raport').fill('1');

    // the report survives a reload: it is kept on the phone
    await page.reload();
    await expect(page.getByTestId('vehicle-editor')).toBeVisible();
    await expect(page.getByTestId(`sold-${first.id}`)).toHaveValue('6');
    await page.goBack();
    await expect(page.getByTestId('vehicle-check')).toHaveCount(2);
    await expect(page.getByTestId(`received-${first.id}`)).toHaveValue('10');

    // the connection goes: the photo and the completed report wait on the phone
    await context.setOffline(true);
    await page.getByTestId('vehicle-check').nth(1).click();
    const photo = await page.screenshot({ type: 'jpeg', quality: 80 });
    await page.getByTestId('photo-input').setInputFiles({ name: 'camera.jpg', mimeType: 'image/jpeg', buffer: photo });
    await expect(page.getByTestId('photo-count')).toContainText('1');
    await page.getByTestId('report-back').click();
    let resultSaves = 0;
    page.on('response', (response) => {
      if (response.request().method() === 'PUT' && response.url().includes(`/controllertask/result/${task.id}`) && response.ok())
        resultSaves += 1;
    });
    await page.getByTestId('complete-report').click();
    await expect(page).toHaveURL('/m/bc');
    const outbox = page.getByTestId('outbox');
    await expect(outbox).toBeVisible();
    expect(Number(await outbox.getAttribute('data-count'))).toBeGreaterThanOrEqual(3);
    await shot(page, 'outbox');

    // back online: everything goes, the report once
    await context.setOffline(false);
    await expect(outbox).toBeHidden({ timeout: 20_000 });
    expect(resultSaves).toBe(1);
    const stored = (await (
      await page.request.get(`/api/v1/pass/controllertask/result/${task.id}`, { headers })
    ).json()) as TaskResultResponse;
    expect(stored.task.status).toBe('closed');
    expect(stored.task.check_vehicles).toHaveLength(2);
    expect(stored.task.check_tickets).toMatchObject({ [first.id]: 10, [second.id]: 5 });
    expect(stored.task.check_vehicles.map((c) => c.sell_tickets.find((s) => s.ticket_id === first.id)?.count)).toEqual([4, 6]);
    expect(stored.task.check_vehicles[0].take_tickets.map((x) => x.ticket_id)).toEqual(['sk', 'vesb', 'other_leg', 'other_not_leg']);
    expect(stored.files).toHaveLength(1);
    expect(stored.files[0].title).toMatch(/^\d+\.jpg$/);
    // the position reached the department-control map
    const map = (await (
      await page.request.post('/api/v1/pass/departmentcontroll/map', { headers, data: { department_ids: null } })
    ).json()) as { controllers: { lat: number; lon: number }[] };
    expect(map.controllers.some((c) => Math.abs(c.lat - 59.9311) < 1e-6 && Math.abs(c.lon - 30.3609) < 1e-6)).toBe(true);

    // the desktop sees the report with the photo
    const desktop = await browser.newContext({ viewport: { width: 1400, height: 900 }, locale: 'ru-RU', timezoneId: 'Europe/Moscow' });
    const adminToken = await apiToken(page, 'admin');
    await desktop.addInitScript((value) => localStorage.setItem('token', value), adminToken);
    const console = await desktop.newPage();
    await console.goto(`/bc/result/${task.id}`);
    await expect(console.getByTestId('task-result')).toBeVisible();
    await expect(console.getByTestId('task-status')).toHaveAttribute('data-status', 'closed');
    await expect(console.getByTestId('result-check')).toHaveCount(2);
    const image = console.getByTestId('result-photo');
    await expect(image).toBeVisible();
    expect(await image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(100);
    await console.screenshot({ path: 'test-results/screens/bc-desktop-result.png', fullPage: true });
    await desktop.close();
  });
});

test.describe('ticket control on the desktop', () => {
  test('an order created on the calendar appears on its day', async ({ page }) => {
    await signIn(page, 'admin');
    await page.goto('/bc/calendar');
    const day = page.getByTestId('calendar-day').last();
    const date = await day.getAttribute('data-date');
    const before = await day.getByTestId('calendar-task').count();
    await day.getByTestId('calendar-add').click();
    const form = page.getByTestId('task-form');
    await expect(form).toBeVisible();
    const number = await form.getByTestId('task-number').inputValue();
    expect(number).toMatch(/^\d{4}-\d+-\d+$/);
    await form.getByTestId('task-graphic').getByRole('combobox').click();
    await page.getByRole('option').first().click();
    await form.getByTestId('task-region').getByRole('combobox').click();
    await page.getByRole('option').nth(1).click();
    await form.getByTestId('task-workers').getByRole('combobox').click();
    await page.getByRole('option').first().click();
    await form.getByTestId('task-suggest').click();
    await expect(form.getByTestId('task-suggestion')).toBeVisible();
    await shot(page, 'calendar-form');
    await form.getByTestId('task-save').click();
    await expect(form).toBeHidden();
    const created = page.locator(`[data-testid="calendar-day"][data-date="${date}"]`).getByTestId('calendar-task');
    await expect(created).toHaveCount(before + 1);
    await expect(created.filter({ hasText: number })).toHaveCount(1);
    await shot(page, 'calendar');
  });

  test("/bc/controllertask lists the period's orders newest first, 100 a page, and deletes one after asking", async ({ page }) => {
    const headers = { authorization: `Bearer ${await apiToken(page, 'admin')}` };
    const options = await bcOptions(page, headers);
    const spare = (await (
      await page.request.post('/api/v1/bc/tasks', {
        headers,
        data: {
          number: `E2E-${Date.now()}`,
          date: new Date().toISOString().slice(0, 10),
          graphic_type_id: options.graphicTypes[0].id,
          department_id: options.departments[0].id,
          control_region_id: null,
          worker_ids: [],
          routes: [],
        },
      })
    ).json()) as ControllerTask;
    await signIn(page, 'admin');
    const first = listedOrders(page);
    await page.goto('/bc/controllertask');
    const opened = await first;
    const query = new URL(opened.url()).searchParams;
    // a week back and a week ahead
    expect(Object.fromEntries(query)).toMatchObject({ sortField: 'date', sortOrder: 'DESC', skipCount: '0', recordCount: '100' });
    expect(query.get('from')).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(query.get('to')).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const period = (await opened.json()) as ListResponse<ControllerTask>;
    await expect(orderRows(page)).toHaveCount(Math.min(period.count, 100));
    await expect(orderRows(page).first()).toHaveAttribute('data-id', String(period.list[0].id));
    await shot(page, 'controllertask');

    const row = page.locator(`[data-testid="task-row"][data-id="${spare.id}"]`);
    await row.getByRole('button', { name: 'Удалить' }).click();
    await expect(page.getByText(`Удалить задание № ${spare.number} вместе с отчётом?`)).toBeVisible();
    await page.getByRole('button', { name: 'Да' }).click();
    await expect(page.getByText('Задание удалено')).toBeVisible();
    await expect(row).toHaveCount(0);
    expect((await page.request.get(`/api/v1/bc/tasks/${spare.id}`, { headers })).status()).toBe(404);
  });

  test('/bc/controllertask filters by status, department and controller, and sorts by a column on the server', async ({ page }) => {
    const options = await bcOptions(page, { authorization: `Bearer ${await apiToken(page, 'admin')}` });
    const [department, other] = options.departments;
    const workers = options.workers.filter((worker) => worker.td_id === department.id);
    await signIn(page, 'admin');
    await page.goto('/bc/controllertask');
    await expect(orderRows(page).first()).toBeVisible();

    const closed = listedOrders(page, (q) => q.get('status') === 'closed');
    await page.getByRole('combobox', { name: 'Статус' }).click();
    await page.getByRole('option', { name: 'Выполнено', exact: true }).click();
    const closedOnes = (await (await closed).json()) as ListResponse<ControllerTask>;
    expect(closedOnes.count).toBeGreaterThan(0);
    await expect(orderRows(page)).toHaveCount(Math.min(closedOnes.count, 100));
    await expect(page.locator('[data-testid="task-row"] [data-testid="task-status"]:not([data-status="closed"])')).toHaveCount(0);

    // the controllers offered are the department's; another department drops the one chosen
    const ofDepartment = listedOrders(page, (q) => q.get('department') === String(department.id) && q.get('status') === 'closed');
    await page.getByRole('combobox', { name: 'Территориальный отдел' }).click();
    await page.getByRole('option', { name: department.name, exact: true }).click();
    await ofDepartment;
    await expect(orderRows(page).filter({ hasNotText: department.name })).toHaveCount(0);
    await page.getByRole('combobox', { name: 'Контролёр' }).click();
    await expect(page.getByRole('option')).toHaveText(['Любой', ...workers.map((worker) => worker.fio)]);
    const byWorker = listedOrders(page, (q) => q.get('worker') === String(workers[0].id));
    await page.getByRole('option', { name: workers[0].fio, exact: true }).click();
    await byWorker;
    const dropped = listedOrders(page, (q) => q.get('department') === String(other.id) && !q.has('worker'));
    await page.getByRole('combobox', { name: 'Территориальный отдел' }).click();
    await page.getByRole('option', { name: other.name, exact: true }).click();
    await dropped;
    await expect(page.getByRole('combobox', { name: 'Контролёр' })).not.toContainText(workers[0].fio);

    // a column's first click sorts down, the next up
    const down = listedOrders(page, (q) => q.get('sortField') === 'number' && q.get('sortOrder') === 'DESC');
    await page.getByTestId('task-list').getByText('Номер', { exact: true }).click();
    await down;
    const up = listedOrders(page, (q) => q.get('sortField') === 'number' && q.get('sortOrder') === 'ASC');
    await page.getByTestId('task-list').getByText('Номер', { exact: true }).click();
    const ascending = (await (await up).json()) as ListResponse<ControllerTask>;
    await expect(orderRows(page).first()).toHaveAttribute('data-id', String(ascending.list[0].id));
  });

  test('/bc/controllertask pages a longer period: the second page starts at the 101st order', async ({ page }) => {
    await signIn(page, 'admin');
    await page.goto('/bc/controllertask');
    await expect(orderRows(page).first()).toBeVisible();
    const longer = listedOrders(page, (q) => q.get('from') === '2000-01-01' && q.get('skipCount') === '0');
    const from = page.getByRole('group', { name: 'С', exact: true });
    await from.getByRole('spinbutton', { name: 'День' }).click();
    await page.keyboard.type('01012000');
    const all = (await (await longer).json()) as ListResponse<ControllerTask>;
    expect(all.count).toBeGreaterThan(100);
    await expect(from).toContainText('01.01.2000');
    await expect(orderRows(page)).toHaveCount(100);
    const second = listedOrders(page, (q) => q.get('from') === '2000-01-01' && q.get('skipCount') === '100');
    await page.getByRole('button', { name: 'На 2 страницу' }).click();
    const next = (await (await second).json()) as ListResponse<ControllerTask>;
    await expect(orderRows(page)).toHaveCount(all.count - 100);
    await expect(orderRows(page).first()).toHaveAttribute('data-id', String(next.list[0].id));
    // the filters and the page are the address: a reload keeps them
    await page.reload();
    await expect(from).toContainText('01.01.2000');
    await expect(orderRows(page).first()).toHaveAttribute('data-id', String(next.list[0].id));
  });

  test('/bc/reports names every department (and every route) under its chart, none over another', async ({ page }) => {
    await signIn(page, 'admin');
    await page.goto('/bc/reports');
    let before: string[] = [];
    for (const group of ['По отделам', 'По маршрутам']) {
      if (group !== 'По отделам') {
        await page.getByTestId('report-filters').getByRole('combobox', { name: 'Группировка' }).click();
        await page.getByRole('option', { name: group, exact: true }).click();
      }
      const built = page.waitForResponse((r) => r.url().includes('/api/v1/reports/bc/reports?'));
      await page.getByTestId('report-build').click();
      expect((await built).status()).toBe(200);
      const chart = page.getByTestId('report-chart');
      const column = chart.getByTestId('report-chart-table').locator('tbody tr td:first-child');
      let names: string[] = [];
      await expect
        .poll(
          async () => {
            names = (await column.allInnerTexts()).map((name) => name.trim());
            return names.length > 1 && names.join() !== before.join();
          },
          { message: group },
        )
        .toBe(true);
      before = names;
      const ticks = chart.locator('.recharts-xAxis-tick-labels .recharts-cartesian-axis-tick-value');
      await expect(ticks).toHaveCount(names.length);
      const shown = await boxesOf(ticks);
      // each name whole or shortened with «…» (the table under the chart has them whole)
      expect(
        shown.map((tick, i) => (tick.text.endsWith('…') ? names[i].startsWith(tick.text.slice(0, -1)) : tick.text === names[i])),
      ).toEqual(names.map(() => true));
      expect(overlapping(shown), group).toEqual([]);
    }
  });

  test('the route rate is coloured from green through orange and yellow to red', async ({ page }) => {
    await signIn(page, 'admin');
    await page.goto('/bc/routerate');
    await page.getByTestId('report-build').click();
    const cells = page.getByTestId('report-table').getByTestId('rate-cell');
    await expect(cells.first()).toBeVisible();
    for (const cell of (await cells.all()).slice(0, 5)) {
      const value = Number((await cell.innerText()).replace(',', '.').replace(/\s/g, ''));
      const background = await cell.evaluate((el) => getComputedStyle(el).backgroundColor);
      expect(hex(background)).toBe(rateColor(value));
    }
    await shot(page, 'routerate');
  });
});
