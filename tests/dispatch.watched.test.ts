import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/server/config';
import { operatorDate, operatorMidnight } from '../src/server/platform/operatorDay';
import type { ExitsList } from '../src/shared/dispatch/api';
import { DISPATCH_REPORTS } from '../src/shared/reports/dispatch';
import { reportApi } from '../src/shared/reports/types';
import { eastOf, insertLineRoute, watchedSince } from './dispatch.tracks';
import { ENGINES } from './helpers/engines';
import { startTestApp, type TestApp } from './helpers/testApp';

const TZ = 180;
const MIN = 60_000;
const point = eastOf(55.93, 37.45);
const COMPLETION = reportApi(DISPATCH_REPORTS.find((r) => r.path === '/reports/runs')!);

/**
 * A run due while the live timetable was not running (before its first start, the server down) is not judged
 * missed: «План и факт» and «Выполнение рейсов» show it as «Нет данных», apart from the runs not performed,
 * and out of the shares. Once a span of watching covers its end it is not performed again.
 */
describe.each(ENGINES)('runs due while nobody watched on %s', (engine) => {
  let t: TestApp;
  let admin: string;
  let routeId: number;
  let serviceDate: string;
  /** When the three runs were due to end, judged then (the settings' run-missed time after). */
  let judged: number;

  const exits = async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: `/api/v1/dispatch/exits?date=${serviceDate}&route=${routeId}`,
      headers: { authorization: admin },
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<ExitsList>();
  };
  const completion = async () => {
    const from = `${serviceDate}T00:00:00+03:00`;
    const response = await t.app.inject({
      method: 'GET',
      url: `${COMPLETION}?from=${encodeURIComponent(from)}&to=${encodeURIComponent(new Date().toISOString())}&route=${routeId}`,
      headers: { authorization: admin },
    });
    expect(response.statusCode, response.body).toBe(200);
    // the variant runs every day: the service date's row
    return response.json<{ list: Record<string, unknown>[] }>().list.filter((row) => row.day === serviceDate);
  };

  beforeAll(async () => {
    t = await startTestApp(engine, { switches: loadConfig({ DEMO_DATA: 'false', MODULES: 'dispatch' }).switches });
    admin = await t.login('admin', 'admin123');
    const now = Date.now();
    serviceDate = operatorDate(now - 150 * MIN, TZ);
    const midnight = operatorMidnight(serviceDate, TZ);
    // three exits of one race each, due 100 to 86 minutes ago: long judged, no passages
    const first = Math.floor((now - 100 * MIN - midnight) / MIN);
    let stopIds: number[];
    let variant: number;
    ({ routeId, stopIds, variant } = await insertLineRoute(t.db, point, serviceDate, '91'));
    for (let graph = 1; graph <= 3; graph++)
      for (const [i, stopId] of stopIds.entries())
        await t.db.query(
          `insert into mgt.rasp_time ("RaspVariant_id", graph, smena, racetype, racenum, "order", stop_id, time) values ($1, $2, '1', 'A', 1, $3, $4, $5)`,
          [variant, graph, i + 1, stopId, first + 2 * i],
        );
    const end = midnight + (first + 2 * (stopIds.length - 1)) * MIN;
    judged = end + (await t.app.settings.document()).dispatch.runMissedSeconds * 1000;
    await t.app.dispatch.settle();
  });
  afterAll(() => t?.close());

  it('shows the runs due before the live timetable started as not watched, apart and out of the shares', async () => {
    // the server's own span of watching starts with it, after those runs were judged
    const [span] = await t.db.query<{ started_at: Date }>('select started_at from dispatch.watch_span order by id limit 1');
    expect(new Date(span.started_at).getTime()).toBeGreaterThan(judged);

    const body = await exits();
    expect(body.list.map((r) => r.status)).toEqual(['not_watched', 'not_watched', 'not_watched']);
    expect(body.totals).toMatchObject({ planned: 3, notPerformed: 0, notWatched: 3 });
    expect(await completion()).toEqual([
      expect.objectContaining({
        planned: 3,
        performed: 0,
        not_performed: 0,
        not_watched: 3,
        pending: 0,
        performed_share: null,
        not_performed_share: null,
      }),
    ]);
  });

  it('judges them not performed once a span of watching covers their end', async () => {
    await watchedSince(t.db, judged - 5 * MIN);
    const body = await exits();
    expect(body.list.map((r) => r.status)).toEqual(['not_performed', 'not_performed', 'not_performed']);
    expect(body.totals).toMatchObject({ notPerformed: 3, notWatched: 0 });
    expect(await completion()).toEqual([expect.objectContaining({ not_performed: 3, not_watched: 0, not_performed_share: 100 })]);
  });
});
