import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from './helpers/engines';
import { startTestApp, type TestApp } from './helpers/testApp';
import { loadConfig } from '../src/server/config';
import { mapConfig } from '../src/server/map/config';
import { addDays, operatorDate } from '../src/server/platform/operatorDay';
import { WeekdayPlans } from '../src/server/simulator/weekdayPlans';
import type { HistoryFillStatus } from '../src/shared/historyFill';

process.env.EQUIPMENT_WORKER = 'false';

/** The demo history's background fill: the newest day first, and its progress in the service status. */
describe.each(ENGINES)('the demo history fill on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(engine, { switches: loadConfig({ DEMO_DATA: 'false', MODULES: 'vehicleWorkData' }).switches });
  });
  afterAll(async () => t.close());

  const history = async () => (await t.app.inject({ method: 'GET', url: '/api/health' })).json().history as HistoryFillStatus;
  const days = async () =>
    (await t.db.query<{ day: string }>('select distinct day::text as day from mnt.vehicle_work_day order by day')).map((r) => r.day);

  it('fills the work data newest day first, reporting its progress until complete', async () => {
    const now = Date.now();
    const { tzOffsetMinutes } = mapConfig();
    const today = operatorDate(now, tzOffsetMinutes);
    const reports: [number, number][] = [];
    let afterFirstDay: Promise<string[]> | undefined;
    const progress = t.app.demoHistory.progress('vehicle work data');
    const fill = t.app.equipment.workDays.seedDemoHistory(4, new WeekdayPlans(t.db, tzOffsetMinutes), now, (done, total) => {
      progress(done, total);
      reports.push([done, total]);
      // asked at once, ahead of the fill's next statement: the days written by then
      if (done === 1) afterFirstDay = days();
    });
    t.app.demoHistory.track('vehicle work data', fill);
    expect((await history()).complete).toBe(false);
    t.app.demoHistory.seal();
    await t.app.demoHistory.done;

    expect(await afterFirstDay).toEqual([addDays(today, -1)]);
    expect(reports).toEqual([
      [0, 4],
      [1, 4],
      [2, 4],
      [3, 4],
      [4, 4],
    ]);
    expect(await days()).toEqual([4, 3, 2, 1].map((n) => addDays(today, -n)));
    expect(await history()).toEqual({ complete: true, daysDone: 4, daysTotal: 4 });
  });
});
