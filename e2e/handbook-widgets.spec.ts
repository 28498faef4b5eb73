import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { ACCOUNTS, signIn } from './helpers';

/** The handbook widgets: a trip's stops (composite editor) and a recorder's cameras (modal list). */

async function api<T>(request: APIRequestContext, url: string, data?: unknown): Promise<T> {
  const login = await request.post('/api/v1/auth/login', { data: { username: 'admin', password: ACCOUNTS.admin } });
  const { token } = (await login.json()) as { token: string };
  const headers = { authorization: `Bearer ${token}` };
  const response = data === undefined ? await request.get(url, { headers }) : await request.post(url, { data, headers });
  expect(response.status(), await response.text()).toBe(200);
  return (await response.json()) as T;
}

interface TripStop {
  stop_id: number;
  stop_sequence: number;
  kkp: string | null;
  stop_name: string;
}
const stopRows = (page: Page) => page.getByTestId('trip-stop-row');

test.describe('handbook widgets', () => {
  test.describe.configure({ timeout: 90_000 });

  test("a trip's stops: add one, move it up, save; it stays after a reload", async ({ page, request }) => {
    const trips = await api<{ list: { id: number }[] }>(request, '/api/table/list', {
      config: { type: 'trips' },
      perPage: 20,
      sort: { field: 'id', order: 'ASC' },
    });
    let tripId = 0;
    let before: TripStop[] = [];
    for (const trip of trips.list) {
      before = (await api<{ list: TripStop[] }>(request, `/api/table/tripstops?trip_id=${trip.id}`)).list;
      tripId = trip.id;
      if (before.length >= 2) break;
    }
    expect(before.length).toBeGreaterThanOrEqual(2);
    // a stop not on the trip, with a name of its own
    const options = await api<{ list: { value: number; label: string }[] }>(request, '/api/table/options', {
      config: { type: 'tripstops' },
      field: 'stop_id',
      q: '',
    });
    const known = new Set(before.map((stop) => stop.stop_name));
    const extra = options.list.find(
      (option) => !known.has(option.label) && options.list.filter((other) => other.label === option.label).length === 1,
    )!;
    expect(extra).toBeTruthy();

    await signIn(page, 'admin');
    await page.goto(`/handbooks/table/trips/${tripId}`);
    const editor = page.getByTestId('trip-stops-editor');
    await expect(stopRows(page)).toHaveCount(before.length);
    await expect(stopRows(page).first().getByTestId('trip-stop-input')).toHaveValue(before[0].stop_name);
    await expect(editor.getByTestId('trip-stops-save')).toBeDisabled();

    await editor.getByTestId('trip-stop-add').click();
    await expect(stopRows(page)).toHaveCount(before.length + 1);
    await expect(editor.getByTestId('trip-stops-unsaved')).toBeVisible();
    const added = stopRows(page).last();
    await added.getByTestId('trip-stop-input').fill(extra.label.slice(0, 40));
    // the option shows the stop's name and, to tell same-named stops apart, its id
    const escaped = extra.label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    await page.getByRole('option', { name: new RegExp(`^${escaped}\\s*${extra.value}$`) }).click();
    await expect(added.getByTestId('trip-stop-input')).toHaveValue(extra.label);
    // one place up: it becomes the last but one
    await added.getByTestId('trip-stop-up').click();
    const position = before.length - 1;
    await expect(stopRows(page).nth(position).getByTestId('trip-stop-input')).toHaveValue(extra.label);
    await expect(stopRows(page).nth(position).getByTestId('trip-stop-sequence')).toHaveText(String(position + 1));

    await editor.getByTestId('trip-stops-save').click();
    await expect(page.getByText('Остановки рейса сохранены')).toBeVisible();
    await expect(editor.getByTestId('trip-stops-unsaved')).toHaveCount(0);

    await page.reload();
    await expect(stopRows(page)).toHaveCount(before.length + 1);
    await expect(stopRows(page).nth(position).getByTestId('trip-stop-input')).toHaveValue(extra.label);
    await expect(stopRows(page).last().getByTestId('trip-stop-input')).toHaveValue(before[before.length - 1].stop_name);
    const after = (await api<{ list: TripStop[] }>(request, `/api/table/tripstops?trip_id=${tripId}`)).list;
    expect(after.map((stop) => stop.stop_sequence)).toEqual(after.map((_, i) => i + 1));
    expect(after[position].stop_id).toBe(extra.value);

    // an empty stop is refused on its row and nothing changes
    await editor.getByTestId('trip-stop-add').click();
    await editor.getByTestId('trip-stops-save').click();
    await expect(stopRows(page).last()).toContainText('Это обязательное поле');
    await expect(editor.getByTestId('trip-stops-refusal')).toBeVisible();
    expect((await api<{ list: TripStop[] }>(request, `/api/table/tripstops?trip_id=${tripId}`)).list).toEqual(after);

    // the demo trip as it was, for the specs that follow (the map draws routes from their trips' stops)
    await api(request, '/api/table/tripstops', {
      trip_id: tripId,
      stops: before.map(({ stop_id, stop_sequence, kkp }) => ({ stop_id, stop_sequence, kkp })),
    });
  });

  test("a recorder's cameras are chosen in the modal list, saved and shown", async ({ page, request }) => {
    const types = (
      await api<{ list: { ip: number; index: number; title: string }[] }>(request, '/api/table/list', {
        config: { type: 'cameratype' },
        perPage: 1000,
      })
    ).list.sort((a, b) => a.index - b.index);
    expect(types.length).toBeGreaterThanOrEqual(2);
    const recorder = (
      await api<{ list: { id: number; cameras: number[] }[] }>(request, '/api/table/list', { config: { type: 'dvr' }, perPage: 1 })
    ).list[0];
    // the choice: the first and the last type by index
    const wanted = [types[0], types[types.length - 1]];

    await signIn(page, 'admin');
    await page.goto(`/handbooks/table/dvr/${recorder.id}`);
    const input = page.getByTestId('dvr-cameras');
    await expect(input.getByTestId('dvr-camera-chip')).toHaveCount(recorder.cameras.length);

    // Escape closes the modal and changes nothing
    await input.getByTestId('dvr-cameras-choose').click();
    await expect(page.getByTestId('dvr-cameras-dialog')).toBeVisible();
    await page.getByTestId('dvr-camera-option').first().click();
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('dvr-cameras-dialog')).toBeHidden();
    await expect(input.getByTestId('dvr-camera-chip')).toHaveCount(recorder.cameras.length);

    await input.getByTestId('dvr-cameras-choose').click();
    const options = page.getByTestId('dvr-camera-option');
    await expect(options).toHaveCount(types.length);
    for (const [i, type] of types.entries()) {
      const box = options.nth(i).getByRole('checkbox');
      const want = wanted.includes(type);
      if ((await box.isChecked()) !== want) await options.nth(i).click();
      await expect(box).toBeChecked({ checked: want });
    }
    await page.getByTestId('dvr-cameras-apply').click();
    await expect(page.getByTestId('dvr-cameras-dialog')).toBeHidden();
    await expect(input.getByTestId('dvr-camera-chip')).toHaveText(wanted.map((type) => type.title));

    await page.getByRole('button', { name: 'Сохранить' }).click();
    await expect(page).toHaveURL(/\/handbooks\/table\/dvr$/);
    const saved = (
      await api<{ list: { cameras: number[] }[] }>(request, '/api/table/list', { config: { type: 'dvr' }, filters: { id: [recorder.id] } })
    ).list[0];
    expect(saved.cameras).toEqual(wanted.map((type) => type.ip));

    await page.goto(`/handbooks/table/dvr/${recorder.id}`);
    await expect(page.getByTestId('dvr-cameras').getByTestId('dvr-camera-chip')).toHaveText(wanted.map((type) => type.title));

    await api(request, '/api/table/element/save', { config: { type: 'dvr' }, row: { id: recorder.id, cameras: recorder.cameras } });
  });
});
