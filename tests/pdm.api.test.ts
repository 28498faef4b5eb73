import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/server/config';
import { createSource } from '../src/server/telemetry/http/sourceKeys';
import { PERMISSION_CODES } from '../src/shared/permissionCodes';
import { mergePermissions } from '../src/shared/permissions';
import { ENGINES } from './helpers/engines';
import { startTestApp, type TestApp } from './helpers/testApp';
import { TEST_PASSWORD, createUserWith } from './helpers/users';

const API = '/api/v1/pdm';

describe.each(ENGINES)('PDM on %s', (engine) => {
  let t: TestApp;
  let admin: string;
  let vehicle: number;
  let key: string;
  const DEPOT = 991701;

  beforeAll(async () => {
    t = await startTestApp(engine, { switches: loadConfig({ DEMO_DATA: 'false', MODULES: 'pdm' }).switches });
    await createUserWith(
      t.db,
      'pdm_admin',
      mergePermissions(PERMISSION_CODES.filter((c) => c.id >= 35 && c.id <= 43).map((c) => c.grants)),
    );
    admin = await t.login('pdm_admin', TEST_PASSWORD);
    [{ id: vehicle }] = await t.db.query<{ id: number }>(
      `insert into mgt.vehicles (depot_number, peer_address, model) values ($1, 8117001, 'ЛиАЗ-5292') returning id`,
      [DEPOT],
    );
    await t.app.telemetry.devices.refresh();
    ({ key } = await createSource(t.db, 'Датчики', null));
  });
  afterAll(() => t.close());

  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown, auth = admin) =>
    t.app.inject({ method, url, payload: payload as object, headers: { authorization: auth, 'x-timezone-offset': '180' } });
  const journalCount = async (object: string) =>
    (await t.db.query<{ n: number }>('select count(*)::int as n from app.user_action where object = $1', [object]))[0].n;

  let tree: number;
  let engineUnit: number;
  let temp: number;
  let fuel: number;

  it('builds a tree: nodes added, renamed, moved with their children, every change journaled', async () => {
    const created = await call('POST', `${API}/trees`, { name: 'Автобус ЛиАЗ', model: 'ЛиАЗ-5292' });
    expect(created.statusCode).toBe(200);
    tree = created.json().id;
    const add = async (body: object) => {
      const response = await call('POST', `${API}/trees/${tree}/nodes`, body);
      expect(response.statusCode, response.body).toBe(200);
      return response.json().id as number;
    };
    const logger = await add({ name: 'Регистратор', kind: 'logger' });
    engineUnit = await add({ name: 'Двигатель', kind: 'unit', parent_id: logger });
    temp = await add({
      name: 'Темп',
      kind: 'sensor',
      parent_id: engineUnit,
      sensor_type: 'engine_temp',
      channel_kind: 'analog',
      channel: 1,
      unit: '°C',
      scale: 0.1,
      offset: -40,
      normal_min: 70,
      normal_max: 100,
      fault_min: 0,
      fault_max: 110,
      silence_s: 60,
    });
    const fuelUnit = await add({ name: 'Топливная система', kind: 'unit', parent_id: logger });
    fuel = await add({
      name: 'Уровень топлива',
      kind: 'sensor',
      parent_id: fuelUnit,
      sensor_type: 'fuel_level',
      channel_kind: 'liquid',
      channel: 0,
      unit: '%',
      normal_min: 15,
      fault_min: 5,
    });
    expect(
      (await call('POST', `${API}/trees/${tree}/nodes`, { name: 'Дубль', kind: 'sensor', channel_kind: 'analog', channel: 1 })).json()
        .messages,
    ).toEqual(['pdm_channel_taken']);
    expect(
      (await call('POST', `${API}/trees/${tree}/nodes`, { name: 'Плохой', kind: 'sensor', normal_min: 10, fault_min: 20 })).json().messages,
    ).toEqual(['pdm_range_invalid']);
    expect((await call('PUT', `${API}/nodes/${temp}`, { name: 'Температура ОЖ' })).json().name).toBe('Температура ОЖ');
    // the engine unit (with its sensor) moves under the fuel system: its child goes with it
    const moved = await call('POST', `${API}/nodes/move`, { ids: [engineUnit], parent_id: fuelUnit, position: 0 });
    expect(moved.statusCode, moved.body).toBe(200);
    const nodes = (await call('GET', `${API}/trees/${tree}`)).json().nodes as { id: number; parent_id: number | null; position: number }[];
    expect(nodes.find((n) => n.id === engineUnit)).toMatchObject({ parent_id: fuelUnit, position: 0 });
    expect(nodes.find((n) => n.id === temp)!.parent_id).toBe(engineUnit);
    expect(nodes.find((n) => n.id === fuel)).toMatchObject({ parent_id: fuelUnit, position: 1 });
    expect((await call('POST', `${API}/nodes/move`, { ids: [fuelUnit], parent_id: temp })).json().messages).toEqual([
      'pdm_move_into_itself',
    ]);
    // and back, so the rest of the story reads naturally
    await call('POST', `${API}/nodes/move`, { ids: [engineUnit], parent_id: logger, position: 0 });
    expect(await journalCount('pdm.tree')).toBe(1);
    expect(await journalCount('pdm.node')).toBe(5 + 1 + 2);
  });

  it("assigns the tree to the model's vehicles and refuses to delete a node that receives their data", async () => {
    const assigned = await call('PUT', `${API}/trees/${tree}/vehicles`, { model: true });
    expect(assigned.json().vehicles).toEqual([vehicle]);
    const before = await t.db.query('select id from pdm.node where tree_id = $1 order by id', [tree]);
    const refused = await call('POST', `${API}/nodes/delete`, { ids: [engineUnit] });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().messages).toEqual(['pdm_node_assigned']);
    expect(await t.db.query('select id from pdm.node where tree_id = $1 order by id', [tree])).toEqual(before);
    expect((await call('DELETE', `${API}/trees/${tree}`)).json().messages).toEqual(['pdm_tree_assigned']);
    // a unit without sensors goes
    const spare = (await call('POST', `${API}/trees/${tree}/nodes`, { name: 'Резерв', kind: 'unit' })).json().id;
    expect((await call('POST', `${API}/nodes/delete`, { ids: [spare] })).json().deleted).toEqual([spare]);
    expect(await journalCount('pdm.tree')).toBe(2);
  });

  const send = (readings: object[]) =>
    t.app.inject({ method: 'POST', url: '/api/v1/telemetry/sensors', headers: { 'x-telemetry-key': key }, payload: { readings } });
  const stateOf = async (node: number) =>
    (await t.db.query<{ state: string }>('select state from pdm.node_state where vehicle_id = $1 and node_id = $2', [vehicle, node]))[0]
      ?.state;
  const changes = async (node: number) =>
    await t.db.query<{ state: string; prev_state: string | null; till: Date | null }>(
      'select state, prev_state, till from pdm.state_change where vehicle_id = $1 and node_id = $2 order by tm, id',
      [vehicle, node],
    );

  it("judges readings by the node's range: normal, warning, fault; silence makes no data; a reading recovers it", async () => {
    const base = Date.now() - 600_000;
    const at = (s: number) => new Date(base + s * 1000).toISOString();
    const temp = (s: number, celsius: number) => ({
      depot_number: DEPOT,
      tm: at(s),
      channel_kind: 'analog',
      channel: 1,
      value: (celsius + 40) * 10,
    });
    expect((await send([temp(0, 85)])).json()).toEqual({ accepted: 1, unmapped: 0 });
    expect(await stateOf(temp_())).toBe('normal');
    await send([temp(10, 104)]);
    expect(await stateOf(temp_())).toBe('warning');
    await send([temp(20, 115)]);
    expect(await stateOf(temp_())).toBe('fault');
    // a resend stores nothing twice and changes nothing
    await send([temp(20, 115)]);
    expect((await t.db.query<{ n: number }>('select count(*)::int as n from pdm.reading where node_id = $1', [temp_()]))[0].n).toBe(3);
    // a late reading older than the state does not move it
    await send([temp(5, 85)]);
    expect(await stateOf(temp_())).toBe('fault');
    // silence: 60 s after the last reading the node has no data (no zero stored)
    expect(await t.app.pdm.writer.sweepSilence(base + 79_000)).toBe(0);
    expect(await t.app.pdm.writer.sweepSilence(base + 81_000)).toBe(1);
    expect(await stateOf(temp_())).toBe('no_data');
    const [{ value }] = await t.db.query<{ value: number | null }>(
      'select value from pdm.node_state where vehicle_id = $1 and node_id = $2',
      [vehicle, temp_()],
    );
    expect(value).toBeNull();
    await send([temp(300, 88)]);
    expect(await stateOf(temp_())).toBe('normal');
    const list = await changes(temp_());
    expect(list.map((c) => [c.prev_state, c.state])).toEqual([
      [null, 'normal'],
      ['normal', 'warning'],
      ['warning', 'fault'],
      ['fault', 'no_data'],
      ['no_data', 'normal'],
    ]);
    expect(list.slice(0, -1).every((c) => c.till !== null)).toBe(true);
    expect(list.at(-1)!.till).toBeNull();
    // the sensor's own error flag is a fault whatever the value
    await send([{ depot_number: DEPOT, tm: at(310), channel_kind: 'liquid', channel: 0, error: true }]);
    expect(await stateOf(fuel)).toBe('fault');
    // rollups count each stored reading once
    const [{ n }] = await t.db.query<{ n: number }>('select sum(n)::int as n from pdm.reading_minute where node_id = $1', [temp_()]);
    expect(n).toBe(5);
    // a channel no node maps is not stored
    expect((await send([{ depot_number: DEPOT, tm: at(320), channel_kind: 'counter', channel: 7, value: 1 }])).json()).toEqual({
      accepted: 0,
      unmapped: 1,
    });
  });
  const temp_ = () => temp;

  it('answers the declared reports and the special parts', async () => {
    const from = new Date(Date.now() - 3_600_000).toISOString();
    const to = new Date().toISOString();
    const q = `from=${from}&to=${to}`;
    const diag = await call('GET', `/api/v1/reports/pdm/vehicle-diagnostic-report?vehicle=${vehicle}`);
    expect(diag.statusCode, diag.body).toBe(200);
    expect(diag.json().list.find((r: { node_path: string }) => r.node_path.endsWith('Температура ОЖ'))).toMatchObject({
      state: 'normal',
      unit: '°C',
    });
    expect(diag.json().list.find((r: { node_path: string }) => r.node_path === 'Регистратор › Двигатель').state).toBe('normal');
    // the file names the states and node kinds as the table does, never by their codes
    const diagCsv = (await call('GET', `/api/v1/reports/pdm/vehicle-diagnostic-report/export?vehicle=${vehicle}`)).body;
    expect(diagCsv).toContain(';Норма;');
    expect(diagCsv).not.toMatch(/;(normal|sensor|unit);/);
    const journal = await call('GET', `/api/v1/reports/pdm/change-node-journal?${q}&vehicle=${vehicle}`);
    expect(journal.json().count).toBe(6);
    const status = await call('GET', `/api/v1/reports/pdm/equipment-status-report?${q}`);
    expect(status.statusCode, status.body).toBe(200);
    const row = status.json().list.find((r: { node_path: string }) => r.node_path.endsWith('Температура ОЖ'));
    expect(row.normal_h + row.warning_h + row.fault_h + row.no_data_h).toBeCloseTo(1, 2);
    expect(row.fault_h).toBeGreaterThan(0);
    expect(
      (await call('GET', `/api/v1/reports/pdm/service?${q}&show=open&vehicle=${vehicle}`))
        .json()
        .list.map((r: { node_path: string }) => r.node_path),
    ).toEqual(['Регистратор › Топливная система › Уровень топлива']);
    const chart = await call('GET', `${API}/chart?${q}&vehicle=${vehicle}&sensor=engine_temp`);
    expect(chart.statusCode, chart.body).toBe(200);
    expect(chart.json().step).toBe('raw');
    const values = chart.json().points.map((p: Record<string, number | null>) => p[`${vehicle}:${temp}`]);
    expect(values).toContain(null); // the silence is a gap
    expect(values.filter((v: number | null) => v !== null)).toEqual([85, 85, 104, 115, 88]);
    // the charts' defaults (no vehicle chosen) draw the first vehicle's sensors, in the chart and in its table
    const day = `from=${new Date(Date.now() - 86_400_000).toISOString()}&to=${to}`;
    const byDefault = await call('GET', `${API}/chart?${day}`);
    expect(byDefault.statusCode, byDefault.body).toBe(200);
    const [first] = await t.db.query<{ id: number }>(
      `select v.id from pdm.tree_vehicle tv join mgt.vehicles v on v.id = tv.vehicle_id join pdm.node n on n.tree_id = tv.tree_id and n.channel_kind is not null
        order by v.depot_number, v.id limit 1`,
    );
    expect(byDefault.json().series.length).toBeGreaterThan(0);
    expect(new Set(byDefault.json().series.map((s: { vehicle_id: number }) => s.vehicle_id))).toEqual(new Set([first.id]));
    const table = await call('GET', `/api/v1/reports/pdm/charts?${day}`);
    expect(table.statusCode, table.body).toBe(200);
    expect(table.json().count).toBeGreaterThan(0);
    const tooMany = Array.from({ length: 21 }, (_, i) => i + 1).join(',');
    expect((await call('GET', `/api/v1/reports/pdm/charts?${q}&vehicle=${tooMany}`)).json().messages).toEqual(['pdm_series_too_many']);
    const heat = await call('GET', `${API}/heat?${q}&sensorType=engine_temp`);
    expect(heat.statusCode, heat.body).toBe(200);
    expect(heat.json().cells.length).toBeGreaterThan(0);
    const timeline = await call('GET', `${API}/timeline?vehicle=${vehicle}&${q}`);
    expect(
      timeline
        .json()
        .list.find((n: { node_id: number }) => n.node_id === temp)
        .segments.map((s: { state: string }) => s.state),
    ).toEqual(['normal', 'warning', 'fault', 'no_data', 'normal']);
  });

  it('imports: a dry run changes nothing, bad rows are reported and downloadable, a re-import adds nothing', async () => {
    const day = new Date(Date.now() - 2 * 3_600_000);
    const stamp = (m: number) => {
      const d = new Date(day.getTime() + m * 60_000);
      return d.toISOString();
    };
    const content = [
      'Гараж;Датчик;Время;Значение',
      `${DEPOT};A1;${stamp(0)};1250`,
      `${DEPOT};Уровень топлива;${stamp(1)};55,5`,
      `${DEPOT};A9;${stamp(2)};1`,
      `999999;A1;${stamp(3)};1`,
    ].join('\n');
    const mapping = { depot_number: 'Гараж', sensor: 'Датчик', tm: 'Время', value: 'Значение' };
    const count = async () => (await t.db.query<{ n: number }>('select count(*)::int as n from pdm.reading'))[0].n;
    const before = await count();
    const dry = await call('POST', `${API}/imports`, { kind: 'sensors', file_name: 'sensors.csv', content, mapping, dry_run: true });
    expect(dry.statusCode, dry.body).toBe(200);
    expect(dry.json()).toMatchObject({ rows: 4, added: 2, skipped: 0, refused: 2 });
    expect(dry.json().errors).toEqual([
      { line: 4, column: 'Датчик', message: 'sensor_not_found' },
      { line: 5, column: 'Гараж', message: 'vehicle_not_found' },
    ]);
    expect(await count()).toBe(before);
    const real = await call('POST', `${API}/imports`, { kind: 'sensors', file_name: 'sensors.csv', content, mapping, dry_run: false });
    expect(real.json()).toMatchObject({ added: 2, skipped: 0, refused: 2 });
    expect(await count()).toBe(before + 2);
    const again = await call('POST', `${API}/imports`, { kind: 'sensors', file_name: 'sensors.csv', content, mapping, dry_run: false });
    expect(again.json()).toMatchObject({ added: 0, skipped: 2, refused: 2 });
    expect(await count()).toBe(before + 2);
    const failed = await call('GET', `${API}/imports/${real.json().id}/failed`);
    expect(failed.body).toContain('A9');
    expect(failed.body).toContain('sensor_not_found');
    const history = await call('GET', `${API}/imports`);
    expect(history.json().count).toBe(3);
    // service records: re-import adds nothing either
    const service = ['ТС;Узел;Дата;Работа;Следующее', `${DEPOT};Двигатель;01.03.2026 10:00;ремонт;01.04.2026`].join('\n');
    const smap = { depot_number: 'ТС', node: 'Узел', tm: 'Дата', work: 'Работа', next_due: 'Следующее' };
    expect(
      (
        await call('POST', `${API}/imports`, { kind: 'service', file_name: 's.csv', content: service, mapping: smap, dry_run: false })
      ).json(),
    ).toMatchObject({ added: 1, refused: 0 });
    expect(
      (
        await call('POST', `${API}/imports`, { kind: 'service', file_name: 's.csv', content: service, mapping: smap, dry_run: false })
      ).json(),
    ).toMatchObject({ added: 0, skipped: 1 });
    expect(
      (
        await call('POST', `${API}/imports`, {
          kind: 'service',
          file_name: 's.csv',
          content: service,
          mapping: { depot_number: 'ТС' },
          dry_run: true,
        })
      ).json().messages,
    ).toEqual(['pdm_import_mapping']);
  });

  it('writes the refused rows guarded against formula injection, and a corrected file imports as written', async () => {
    const [tm1, tm2] = [3, 4].map((hours) => new Date(Date.now() - hours * 3_600_000).toISOString());
    const content = [
      'Гараж;Датчик;Время;Значение;Примечание',
      `${DEPOT};A9;${tm1};-5;=HYPERLINK("http://x")`,
      `${DEPOT};A9;${tm2};7;+79001234567 @SUM(A1)`,
    ].join('\n');
    const mapping = { depot_number: 'Гараж', sensor: 'Датчик', tm: 'Время', value: 'Значение' };
    const run = await call('POST', `${API}/imports`, { kind: 'sensors', file_name: 'guard.csv', content, mapping, dry_run: true });
    expect(run.json()).toMatchObject({ refused: 2, failed: true });
    const failed = await call('GET', `${API}/imports/${run.json().id}/failed`);
    const lines = failed.body.replace(/^\uFEFF/, '').split('\r\n');
    expect(lines[1]).toBe(`${DEPOT};A9;${tm1};'-5;"'=HYPERLINK(""http://x"")";Датчик: sensor_not_found`);
    expect(lines[2]).toBe(`${DEPOT};A9;${tm2};7;'+79001234567 @SUM(A1);Датчик: sensor_not_found`);
    // the operator corrects the sensor in the refused file and imports it: the values read as the original file had them
    const corrected = failed.body.replaceAll(';A9;', ';A1;');
    const again = await call('POST', `${API}/imports`, {
      kind: 'sensors',
      file_name: 'guard-failed.csv',
      content: corrected,
      mapping,
      dry_run: true,
    });
    expect(again.json()).toMatchObject({ rows: 2, added: 2, refused: 0 });
  });

  it("refuses each code's routes without its bits", async () => {
    await createUserWith(t.db, 'pdm_none', { '/map/currentData': 4 });
    const none = await t.login('pdm_none', TEST_PASSWORD);
    const from = new Date(Date.now() - 3_600_000).toISOString();
    const q = `from=${from}&to=${new Date().toISOString()}`;
    const routes: [string, string, number][] = [
      ['GET', `/api/v1/reports/pdm/vehicle-diagnostic-report`, 35],
      ['GET', `${API}/trees`, 36],
      ['GET', `/api/v1/reports/pdm/heatmap?${q}`, 37],
      ['GET', `/api/v1/reports/pdm/service?${q}`, 38],
      ['GET', `/api/v1/reports/pdm/change-node-journal?${q}`, 39],
      ['GET', `${API}/chart?${q}&vehicle=${vehicle}`, 40],
      ['GET', `/api/v1/reports/pdm/service?${q}`, 41],
      ['GET', `${API}/imports`, 42],
      ['GET', `/api/v1/reports/pdm/equipment-status-report?${q}`, 43],
    ];
    for (const [method, url, code] of routes) {
      expect((await call(method as 'GET', url, undefined, none)).statusCode, url).toBe(403);
      const grants = PERMISSION_CODES.find((c) => c.id === code)!.grants;
      await createUserWith(t.db, `pdm_code_${code}`, grants);
      const holder = await t.login(`pdm_code_${code}`, TEST_PASSWORD);
      expect((await call(method as 'GET', url, undefined, holder)).statusCode, `${url} with code ${code}`).toBe(200);
    }
    // a reader of trees (no create/update bit) cannot change one
    await createUserWith(t.db, 'pdm_tree_reader', { '/pdm/tree-editor': 4 });
    const reader = await t.login('pdm_tree_reader', TEST_PASSWORD);
    expect((await call('POST', `${API}/trees`, { name: 'x' }, reader)).statusCode).toBe(403);
    expect((await call('POST', `${API}/nodes/delete`, { ids: [temp] }, reader)).statusCode).toBe(403);
  });
});
