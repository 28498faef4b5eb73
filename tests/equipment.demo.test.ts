import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from './helpers/engines';
import { startTestApp, type TestApp } from './helpers/testApp';
import { loadConfig } from '../src/server/config';
import { seedDemoRemoteConfiguration } from '../src/server/equipment/demoConfiguration';
import { SimulatedTerminals, temperOf } from '../src/server/simulator/simulatedTerminals';
import { WeekdayPlans } from '../src/server/simulator/weekdayPlans';
import { COMMAND_STATUS as S } from '../src/shared/equipment/commandStatus';

process.env.EQUIPMENT_WORKER = 'false';

/** A fresh demo's remote-configuration screens have a managed fleet to show, built through the real paths. */
describe.each(ENGINES)('demo remote configuration on %s', (engine) => {
  let t: TestApp;
  let admin: string;
  const get = async (url: string) => {
    const res = await t.app.inject({ method: 'GET', url, headers: { authorization: admin } });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };

  beforeAll(async () => {
    t = await startTestApp(engine, { switches: loadConfig({ DEMO_DATA: 'false', MODULES: 'vehicleWorkData' }).switches });
    admin = await t.login('admin', 'admin123');
  });
  afterAll(async () => t.close());

  it('seeds configurations, groups, a finished rollout and live ones once', async () => {
    expect(await seedDemoRemoteConfiguration(t.app.db, t.app.eventsWriter)).toBe(true);
    expect(await seedDemoRemoteConfiguration(t.app.db, t.app.eventsWriter)).toBe(false);

    const configurations = (await get('/api/v1/mnt/configurations')) as { name: string; version: number; locked_at: string | null }[];
    expect(configurations.map((c) => `${c.name} v${c.version}`).sort()).toEqual([
      'Базовая v1',
      'Базовая v2',
      'Зимняя v1',
      'Экономия трафика v1',
    ]);
    expect(configurations.find((c) => c.name === 'Экономия трафика')?.locked_at).toBeNull();
    const groups = (await get('/api/v1/mnt/groups')) as { id: number; name: string; vehicles: number }[];
    expect(groups.map((g) => g.name).sort()).toEqual(['Второй филиал', 'Первый филиал', 'Пилотная группа']);
    expect(groups.every((g) => g.vehicles > 0)).toBe(true);

    // Three weeks ago the first branch got version 1: its terminals run it, except those that refuse.
    const first = groups.find((g) => g.name === 'Первый филиал')!;
    const [history] = (await get(`/api/v1/mnt/groups/${first.id}/rollouts`)) as { id: number; state: string }[];
    expect(history.state).toBe('finished');
    const commands = await t.db.query<{ vehicle_id: number; status: number }>(
      'select vehicle_id, status from mnt.command where rollout_id = $1',
      [history.id],
    );
    for (const c of commands) expect(c.status === S.performed, `vehicle ${c.vehicle_id}`).toBe(temperOf(c.vehicle_id) === 'ok');
    const share = (await get('/api/v1/mnt/fleet-share')) as { configuration_id: number | null; vehicles: number }[];
    expect(share.find((s) => s.configuration_id !== null)?.vehicles).toBe(commands.filter((c) => c.status === S.performed).length);

    // The pilot's rollout runs through the dispatcher to the simulated terminals.
    const pilot = groups.find((g) => g.name === 'Пилотная группа')!;
    const [live] = (await get(`/api/v1/mnt/groups/${pilot.id}/rollouts`)) as { id: number; state: string }[];
    expect(live.state).toBe('running');
    const terminals = new SimulatedTerminals(t.app.telemetry.commands, () => undefined, { delayMs: [0, 0] });
    const members = await t.db.query<{ vehicle_id: number }>('select vehicle_id from mnt.command where rollout_id = $1', [live.id]);
    for (const m of members) terminals.connect(m.vehicle_id);
    for (let i = 0; i < 4; i++) {
      await t.app.equipment.dispatcher.tick();
      await new Promise((resolve) => setTimeout(resolve, 30));
    }
    terminals.stop();
    const after = await t.db.query<{ status: number }>(`select status from mnt.command where rollout_id = $1 and status = ${S.performed}`, [
      live.id,
    ]);
    expect(after.length).toBeGreaterThan(0);
    // The winter configuration waits for its night window on the second branch.
    const second = groups.find((g) => g.name === 'Второй филиал')!;
    const [night] = await t.db.query<{ window_from: number; window_to: number; state: string }>(
      'select window_from, window_to, state from mnt.rollout where group_id = $1',
      [second.id],
    );
    expect(night).toEqual({ window_from: 22 * 60, window_to: 5 * 60, state: 'running' });
  });

  it('drives each past day of the work-data history as its weekday, shifted to its date (its pull-outs drawn per date)', async () => {
    const plans = new WeekdayPlans(t.db, 180);
    expect(await t.app.equipment.workDays.seedDemoHistory(8, plans)).toBeGreaterThan(0);
    const [{ oldest, newest }] = await t.db.query<{ oldest: string; newest: string }>(
      'select min(day)::text as oldest, max(day)::text as newest from mnt.vehicle_work_day',
    );
    const dayRows = (day: string) =>
      t.db.query<{ vehicle_id: number; first_at: Date; km: number; trips_planned: number }>(
        'select vehicle_id, first_at, km, trips_planned from mnt.vehicle_work_day where day = $1::date order by vehicle_id',
        [day],
      );
    // Eight days back: the oldest and the newest are the same weekday, one week apart.
    const [a, b] = [await dayRows(oldest), await dayRows(newest)];
    expect(a.length).toBeGreaterThan(0);
    expect(b.map((r) => [r.vehicle_id, r.km, r.trips_planned])).toEqual(a.map((r) => [r.vehicle_id, r.km, r.trips_planned]));
    // A week apart, give or take the day's traffic and a late pull-out the simulator draws per date (at most 70 minutes).
    const shifts = b.map((row, i) => new Date(row.first_at).getTime() - new Date(a[i].first_at).getTime() - 7 * 86_400_000);
    for (const shift of shifts) expect(Math.abs(shift)).toBeLessThanOrEqual(70 * 60_000);
    const median = [...shifts].map(Math.abs).sort((x, y) => x - y)[Math.floor(shifts.length / 2)];
    expect(median).toBeLessThanOrEqual(5 * 60_000);
  });
});
