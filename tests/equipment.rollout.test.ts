import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { ENGINES } from './helpers/engines';
import { startTestApp, type TestApp } from './helpers/testApp';
import { createUserWith, TEST_PASSWORD } from './helpers/users';
import { CREATE, DELETE, READ, UPDATE } from '../src/shared/permissions';
import { loadConfig } from '../src/server/config';
import { operatorDate, operatorMidnight } from '../src/server/platform/operatorDay';
import { SimulatedTerminals, type TerminalTemper } from '../src/server/simulator/simulatedTerminals';
import { CC, CT, commandSubrecord } from '../src/server/telemetry/egts/commands';
import { COMMAND_STATUS as S } from '../src/shared/equipment/commandStatus';
import { defaultParameters, parameterCommands } from '../src/shared/equipment/parameters';

// The dispatcher is driven by hand with a fake clock.
process.env.EQUIPMENT_WORKER = 'false';

const SEC = 1000;
const TZ = 180;
const settle = () => new Promise((resolve) => setTimeout(resolve, 30));

/**
 * Remote configuration end to end through the API and the dispatcher: statuses moved by the (simulated)
 * terminals' EGTS confirmations, refusals and time-outs with retries, offline terminals, phases and the error
 * threshold, the time window on a fake clock, cancel, the configuration lock, dynamic groups, permissions.
 */
describe.each(ENGINES)('remote configuration on %s', (engine) => {
  let t: TestApp;
  let app: FastifyInstance;
  let admin: string;
  let terminals: SimulatedTerminals;
  const tempers = new Map<number, TerminalTemper>();
  let vehicles: { id: number; depot_id: number }[];
  let now: number;

  const api = async (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown, token = admin) =>
    app.inject({ method, url, payload: payload as object, headers: { authorization: token } });
  const statuses = async (rollout: number) =>
    Object.fromEntries(
      (
        await t.db.query<{ vehicle_id: number; status: number }>('select vehicle_id, status from mnt.command where rollout_id = $1', [
          rollout,
        ])
      ).map((r) => [r.vehicle_id, r.status]),
    );
  const tick = async (advanceMs = 0) => {
    now += advanceMs;
    await app.equipment.dispatcher.tick(now);
    await settle();
    await app.equipment.dispatcher.tick(now);
  };
  let seq = 0;
  const configuration = async (parameters = defaultParameters()) => {
    const res = await api('POST', '/api/v1/mnt/configurations', { name: `Базовая ${++seq}`, parameters });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().id as number;
  };
  const staticGroup = async (ids: number[]) => {
    const res = await api('POST', '/api/v1/mnt/groups', { name: `Группа ${++seq}`, kind: 'static', vehicles: ids });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().id as number;
  };
  const rollout = async (body: Record<string, unknown>) => {
    const res = await api('POST', '/api/v1/mnt/rollouts', { firstShare: 100, errorThreshold: 50, ...body });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().id as number;
  };

  beforeAll(async () => {
    t = await startTestApp(engine, { switches: loadConfig({ DEMO_DATA: 'false', MODULES: 'vehicleWorkData' }).switches });
    app = t.app;
    const all = CREATE | READ | UPDATE | DELETE;
    await createUserWith(t.db, 'mnt_admin', { '/mnt-configuration/configurations': all, '/mnt-configuration/vehicle-groups': all });
    await createUserWith(t.db, 'mnt_none', { '/map/currentData': READ });
    admin = await t.login('mnt_admin', TEST_PASSWORD);
    vehicles = await t.db.query(
      'select v.id, v.depot_id from mgt.vehicles v where exists (select 1 from mgt.dev_mnt m where m.vehicle_id = v.id) order by v.id',
    );
    expect(vehicles.length).toBeGreaterThanOrEqual(20);
    terminals = new SimulatedTerminals(app.telemetry.commands, () => undefined, {
      delayMs: [0, 0],
      temper: (id) => tempers.get(id) ?? 'ok',
    });
    // Midday in the operator's zone.
    now = operatorMidnight(operatorDate(Date.now(), TZ), TZ) + 12 * 3600 * SEC;
  });
  afterAll(async () => {
    terminals.stop();
    await t.close();
  });
  beforeEach(() => {
    tempers.clear();
    for (const v of vehicles) terminals.connect(v.id);
  });

  it('validates parameters by their declaration', async () => {
    const bad = await api('POST', '/api/v1/mnt/configurations', {
      name: 'Плохая',
      parameters: { ...defaultParameters(), serverPort: 70000, apn: 5, extra: 1 },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().messages).toEqual(
      expect.arrayContaining(['mnt_parameter_range', 'mnt_parameter_type', 'mnt_parameter_unknown', 'serverPort', 'apn', 'extra']),
    );
    const missing = await api('POST', '/api/v1/mnt/configurations', { name: 'Пустая', parameters: {} });
    expect(missing.json().messages).toContain('mnt_parameter_required');
    expect((await t.db.query('select 1 from mnt.configuration where name in ($1, $2)', ['Плохая', 'Пустая'])).length).toBe(0);
  });

  it('moves a command to performed on the terminal confirmation; refusal, illegal parameter and silence give the error statuses', async () => {
    const [ok, refuses, illegal, silent] = vehicles.slice(0, 4).map((v) => v.id);
    tempers.set(refuses, 'refuses').set(illegal, 'illegal').set(silent, 'silent');
    const config = await configuration();
    const id = await rollout({ groupId: await staticGroup([ok, refuses, illegal, silent]), configurationId: config, maxAttempts: 2 });
    expect(Object.values(await statuses(id))).toEqual([S.queuing, S.queuing, S.queuing, S.queuing]);
    await tick();
    let s = await statuses(id);
    expect(s[ok]).toBe(S.performed);
    expect(s[refuses]).toBe(S.error);
    expect(s[illegal]).toBe(S.configurationError);
    expect(s[silent]).toBe(S.connecting);
    const [refused] = await t.db.query<{ reason: string; retry_at: string | null }>(
      'select reason, retry_at from mnt.command where rollout_id = $1 and vehicle_id = $2',
      [id, refuses],
    );
    expect(refused.reason).toBe('Терминал отказал в выполнении команды');
    expect(refused.retry_at).not.toBeNull();
    const [rejected] = await t.db.query<{ retry_at: string | null }>(
      'select retry_at from mnt.command where rollout_id = $1 and vehicle_id = $2',
      [id, illegal],
    );
    expect(rejected.retry_at).toBeNull();
    // No answer within the time-out: an error with a retry; the retries run out and the rollout finishes.
    await tick(31 * SEC);
    s = await statuses(id);
    expect(s[silent]).toBe(S.error);
    for (let i = 0; i < 6; i++) await tick(120 * SEC);
    const final = await t.db.query<{ vehicle_id: number; status: number; attempts: number; retry_at: string | null; reason: string }>(
      'select vehicle_id, status, attempts, retry_at, reason from mnt.command where rollout_id = $1',
      [id],
    );
    expect(final.find((c) => c.vehicle_id === refuses)).toMatchObject({ status: S.error, attempts: 2, retry_at: null });
    expect(final.find((c) => c.vehicle_id === silent)).toMatchObject({
      status: S.error,
      attempts: 2,
      retry_at: null,
      reason: 'Нет подтверждения от терминала',
    });
    const [state] = await t.db.query<{ state: string }>('select state from mnt.rollout where id = $1', [id]);
    expect(state.state).toBe('finished');
    // The terminal that confirmed runs the configuration now; the journal has the story.
    const [applied] = await t.db.query<{ configuration_id: number }>(
      'select configuration_id from mnt.terminal_config where vehicle_id = $1',
      [ok],
    );
    expect(applied.configuration_id).toBe(config);
    const journal = await t.db.query<{ kind: string }>(`select kind from app.software_event where kind like 'mnt_%'`);
    expect(journal.map((j) => j.kind)).toEqual(
      expect.arrayContaining(['mnt_rollout_started', 'mnt_command_performed', 'mnt_command_error', 'mnt_rollout_finished']),
    );
    const share = await api('GET', '/api/v1/mnt/fleet-share');
    expect(share.json()).toEqual(expect.arrayContaining([expect.objectContaining({ configuration_id: config, vehicles: 1 })]));
  });

  it('keeps an offline terminal waiting and delivers on reconnect', async () => {
    const vehicle = vehicles[4].id;
    terminals.disconnect(vehicle);
    const id = await rollout({ groupId: await staticGroup([vehicle]), configurationId: await configuration() });
    await tick();
    expect((await statuses(id))[vehicle]).toBe(S.waiting);
    await tick(60 * SEC);
    expect((await statuses(id))[vehicle]).toBe(S.waiting);
    terminals.connect(vehicle);
    await tick(SEC);
    expect((await statuses(id))[vehicle]).toBe(S.performed);
  });

  it('runs the first share, pauses on the error threshold, and goes on when resumed', async () => {
    const ten = vehicles.slice(5, 15).map((v) => v.id);
    for (const v of ten) tempers.set(v, 'illegal');
    const id = await rollout({
      groupId: await staticGroup(ten),
      configurationId: await configuration(),
      firstShare: 20,
      errorThreshold: 10,
    });
    const phases = await t.db.query<{ phase: number; n: number }>(
      'select phase, count(*)::int as n from mnt.command where rollout_id = $1 group by phase order by phase',
      [id],
    );
    expect(phases).toEqual([
      { phase: 1, n: 2 },
      { phase: 2, n: 8 },
    ]);
    await tick();
    await tick(SEC);
    const [paused] = await t.db.query<{ state: string; pause_reason: string }>(
      'select state, pause_reason from mnt.rollout where id = $1',
      [id],
    );
    expect(paused.state).toBe('paused');
    expect(paused.pause_reason).toMatch(/Доля ошибок первой очереди 100\.0 %/);
    expect(Object.values(await statuses(id)).filter((s) => s === S.created)).toHaveLength(8);
    // A user decides to go on: the second phase runs.
    tempers.clear();
    expect((await api('POST', `/api/v1/mnt/rollouts/${id}/resume`)).statusCode).toBe(200);
    await tick(SEC);
    await tick(SEC);
    expect(Object.values(await statuses(id)).filter((s) => s === S.performed)).toHaveLength(8);
  });

  it('sends only inside the allowed window (fake clock)', async () => {
    const vehicle = vehicles[15].id;
    // 22:00–05:00 operator time; the clock says 12:00.
    const id = await rollout({
      groupId: await staticGroup([vehicle]),
      configurationId: await configuration(),
      windowFrom: 22 * 60,
      windowTo: 5 * 60,
    });
    await tick();
    expect((await statuses(id))[vehicle]).toBe(S.queuing);
    await tick(9 * 3600 * SEC); // 21:00
    expect((await statuses(id))[vehicle]).toBe(S.queuing);
    await tick(3600 * SEC); // 22:00
    expect((await statuses(id))[vehicle]).toBe(S.performed);
    now -= 10 * 3600 * SEC;
    const incomplete = await api('POST', '/api/v1/mnt/rollouts', {
      groupId: await staticGroup([vehicle]),
      configurationId: 1,
      firstShare: 100,
      errorThreshold: 5,
      windowFrom: 60,
    });
    expect(incomplete.json().messages).toContain('mnt_window_incomplete');
  });

  it('reads a window given as hh:mm text by the shared time rule: 25:00 is 00:00', async () => {
    const vehicle = vehicles[15].id;
    const id = await rollout({
      groupId: await staticGroup([vehicle]),
      configurationId: await configuration(),
      windowFrom: '25:00',
      windowTo: '5:3_',
    });
    const [stored] = await t.db.query<{ window_from: number; window_to: number }>(
      'select window_from, window_to from mnt.rollout where id = $1',
      [id],
    );
    expect(stored).toEqual({ window_from: 0, window_to: 5 * 60 + 30 });
    expect((await api('POST', `/api/v1/mnt/rollouts/${id}/cancel`)).statusCode).toBe(200);
    const before = (await t.db.query<{ n: number }>('select count(*)::int as n from mnt.rollout'))[0].n;
    const bad = await api('POST', '/api/v1/mnt/rollouts', {
      groupId: await staticGroup([vehicle]),
      configurationId: 1,
      firstShare: 100,
      errorThreshold: 5,
      windowFrom: 'вечер',
      windowTo: '05:00',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().messages).toContain('bad_request');
    expect((await t.db.query<{ n: number }>('select count(*)::int as n from mnt.rollout'))[0].n).toBe(before);
  });

  it('cancel stops pending commands', async () => {
    const ids = vehicles.slice(16, 19).map((v) => v.id);
    terminals.disconnect(ids[0]);
    const id = await rollout({ groupId: await staticGroup(ids), configurationId: await configuration(), windowFrom: 1, windowTo: 2 });
    await tick();
    const res = await api('POST', `/api/v1/mnt/rollouts/${id}/cancel`);
    expect(res.json()).toMatchObject({ state: 'cancelled' });
    terminals.connect(ids[0]);
    await tick(SEC);
    const rows = await t.db.query<{ status: number; reason: string }>('select status, reason from mnt.command where rollout_id = $1', [id]);
    expect(rows.every((r) => r.status === S.error && r.reason === 'Развёртывание отменено')).toBe(true);
    expect((await api('POST', `/api/v1/mnt/rollouts/${id}/resume`)).statusCode).toBe(409);
  });

  it('records a confirmation that comes late: after the time-out it counts as performed, after a cancel the terminal’s configuration is kept', async () => {
    const [late, cancelled] = vehicles.slice(19, 21).map((v) => v.id);
    tempers.set(late, 'silent').set(cancelled, 'silent');
    // The terminal's confirmations of every parameter as they come over EGTS, however late.
    const confirmLate = (vehicleId: number, commandId: number) =>
      app.telemetry.commands.receive(vehicleId, {
        rn: 1,
        ssod: false,
        rsod: false,
        group: false,
        priority: 0,
        sst: 4,
        rst: 4,
        subrecords: parameterCommands(defaultParameters()).map(({ ccd }) =>
          commandSubrecord({ ct: CT.COMCONF, cct: CC.OK, cid: commandId, sid: 1, adr: 0, ccd, data: Buffer.alloc(0) }),
        ),
      });
    const commandOf = async (rollout: number) =>
      (await t.db.query<{ id: number }>('select id from mnt.command where rollout_id = $1', [rollout]))[0].id;

    const config = await configuration();
    const timedOut = await rollout({ groupId: await staticGroup([late]), configurationId: config, maxAttempts: 3 });
    await tick();
    await tick(31 * SEC);
    expect((await statuses(timedOut))[late]).toBe(S.error);
    confirmLate(late, await commandOf(timedOut));
    await tick();
    expect((await statuses(timedOut))[late]).toBe(S.performed);
    const [runs] = await t.db.query<{ configuration_id: number }>(
      'select configuration_id from mnt.terminal_config where vehicle_id = $1',
      [late],
    );
    expect(runs.configuration_id).toBe(config);

    const other = await configuration();
    const id = await rollout({ groupId: await staticGroup([cancelled]), configurationId: other });
    await tick();
    expect((await statuses(id))[cancelled]).toBe(S.connecting);
    await api('POST', `/api/v1/mnt/rollouts/${id}/cancel`);
    confirmLate(cancelled, await commandOf(id));
    await tick();
    const [command] = await t.db.query<{ status: number; reason: string }>('select status, reason from mnt.command where rollout_id = $1', [
      id,
    ]);
    expect(command).toEqual({ status: S.error, reason: 'Развёртывание отменено' });
    const [applied] = await t.db.query<{ configuration_id: number }>(
      'select configuration_id from mnt.terminal_config where vehicle_id = $1',
      [cancelled],
    );
    expect(applied.configuration_id).toBe(other);
    const [event] = await t.db.query<{ message: string }>(
      `select message from app.software_event where kind = 'mnt_command_applied_after_cancel'`,
    );
    expect(event.message).toMatch(/после отмены развёртывания/);
  });

  it('locks a configuration once rolled out: edits are refused, a new version is made instead', async () => {
    const config = await configuration();
    expect(
      (await api('PUT', `/api/v1/mnt/configurations/${config}`, { parameters: { ...defaultParameters(), apn: 'draft.apn' } })).statusCode,
    ).toBe(200);
    await rollout({ groupId: await staticGroup([vehicles[21].id]), configurationId: config });
    const refused = await api('PUT', `/api/v1/mnt/configurations/${config}`, { parameters: { ...defaultParameters(), apn: 'other.apn' } });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().messages).toEqual(['mnt_configuration_locked']);
    expect((await api('DELETE', `/api/v1/mnt/configurations/${config}`)).statusCode).toBe(409);
    const [stored] = await t.db.query<{ parameters: { apn: string } }>('select parameters from mnt.configuration where id = $1', [config]);
    expect(stored.parameters.apn).toBe('draft.apn');
    const next = await api('POST', `/api/v1/mnt/configurations/${config}/versions`, {
      parameters: { ...defaultParameters(), apn: 'other.apn' },
    });
    expect(next.statusCode).toBe(201);
    expect(next.json().version).toBe(2);
  });

  it('a dynamic group picks up a new vehicle', async () => {
    const depot = vehicles[0].depot_id;
    const res = await api('POST', '/api/v1/mnt/groups', { name: 'Филиал по фильтру', kind: 'dynamic', filter: { depots: [depot] } });
    const group = res.json().id as number;
    const before = (await api('GET', `/api/v1/mnt/groups/${group}`)).json().count as number;
    expect(before).toBeGreaterThan(0);
    const [vehicle] = await t.db.query<{ id: number }>(
      `insert into mgt.vehicles (depot_id, vehicle_type_id, model, capacity_type_id, depot_number, state_number, peer_address)
       select depot_id, vehicle_type_id, model, capacity_type_id, 990001, 'Н001ЕВ', 990001 from mgt.vehicles where id = $1 returning id`,
      [vehicles[0].id],
    );
    await t.db.query(
      `insert into mgt.dev_mnt (ip, "DevMNTType_id", vehicle_id, peer_address) select '10.0.0.1', "DevMNTType_id", $1, 990001 from mgt.dev_mnt limit 1`,
      [vehicle.id],
    );
    expect((await api('GET', `/api/v1/mnt/groups/${group}`)).json().count).toBe(before + 1);
    const id = await rollout({ groupId: group, configurationId: await configuration() });
    expect(Object.keys(await statuses(id)).map(Number)).toContain(vehicle.id);
    await api('POST', `/api/v1/mnt/rollouts/${id}/cancel`);
  });

  it('refuses code 32 and code 28 routes without their bits', async () => {
    const none = await t.login('mnt_none', TEST_PASSWORD);
    for (const url of [
      '/api/v1/mnt/configurations',
      '/api/v1/mnt/groups',
      '/api/v1/mnt/fleet-share',
      '/api/v1/reports/vehicle-work-data?from=2025-01-01T00:00:00Z&to=2025-01-02T00:00:00Z',
      '/api/v1/reports/vehicle-diagnostic',
    ]) {
      expect((await api('GET', url, undefined, none)).statusCode, url).toBe(403);
    }
    const before = (await t.db.query('select id from mnt.configuration')).length;
    expect((await api('POST', '/api/v1/mnt/configurations', { name: 'Чужая', parameters: defaultParameters() }, none)).statusCode).toBe(
      403,
    );
    expect(
      (await api('POST', '/api/v1/mnt/rollouts', { groupId: 1, configurationId: 1, firstShare: 100, errorThreshold: 5 }, none)).statusCode,
    ).toBe(403);
    expect((await t.db.query('select id from mnt.configuration')).length).toBe(before);
  });
});
