import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import Papa from 'papaparse';
import { ENGINES } from './helpers/engines';
import { startTestApp, type TestApp } from './helpers/testApp';
import { CSV_BOM } from '../src/shared/handbooks/csv';
import { defaultSwitches } from '../src/shared/modules';
import { REPORTS, periodFilter, reportApi, type ReportDeclaration } from '../src/shared/reports';
import { PASSENGER_DEFAULTS } from '../src/shared/passengers/passengers';
import { mapConfig } from '../src/server/map/config';
import { fillHistory } from '../src/server/passengers/passengerHistory';

/** Keyset batches each keyed export is read in. */
const BATCHES = 4;
const DAY_MS = 86_400_000;
/** A period filter without a cap: every year the data could be in. */
const UNCAPPED_FROM = '2000-01-01T00:00:00.000Z';

/** The report's longest allowed period, ending at the end of today (UTC). */
function longestPeriod(report: ReportDeclaration): string {
  const filter = periodFilter(report);
  if (!filter) return '';
  const to = new Date(Math.ceil(Date.now() / DAY_MS) * DAY_MS - 1000);
  const from = filter.maxDays ? new Date(to.getTime() - filter.maxDays * DAY_MS).toISOString() : UNCAPPED_FROM;
  return `from=${encodeURIComponent(from)}&to=${encodeURIComponent(to.toISOString())}`;
}

/** The data rows of a CSV export, each checked to have the header's cells. */
function csvRows(body: string, report: ReportDeclaration): string[][] {
  expect(body.startsWith(CSV_BOM)).toBe(true);
  const parsed = Papa.parse<string[]>(body.slice(1), { delimiter: ';', newline: '\r\n', skipEmptyLines: true });
  expect(parsed.errors).toEqual([]);
  const [header, ...rows] = parsed.data;
  expect(header).toEqual(report.columns.map((c) => c.header));
  for (const row of rows) expect(row).toHaveLength(header.length);
  return rows;
}

/** The data rows of an XLSX export, as exceljs opens it. */
async function xlsxRows(body: Buffer, report: ReportDeclaration): Promise<unknown[][]> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(body as unknown as ArrayBuffer);
  const rows: unknown[][] = [];
  workbook.worksheets[0].eachRow({ includeEmpty: true }, (row) => rows.push((row.values as unknown[]).slice(1)));
  const [header, ...data] = rows;
  expect(header).toEqual(report.columns.map((c) => c.header));
  return data;
}

/**
 * Rows of the keyed journals and lists the test data set has few of, over the last days: each export below
 * then walks several keyset batches of real rows.
 */
async function seedRows(t: TestApp): Promise<void> {
  const { tzOffsetMinutes } = mapConfig();
  await t.app.equipment.workDays.seedDemoHistory(3);
  await fillHistory(t.db, {
    days: 1,
    detailDays: 1,
    tzOffsetMinutes,
    maxWalkMeters: PASSENGER_DEFAULTS.maxWalkMeters,
    transferMinutes: PASSENGER_DEFAULTS.transferMinutes,
  });
  await t.db.query(`insert into pass.import_run (at, username, file, rows, added, status)
    select now() - n * interval '1 hour', 'admin', 'validations-' || n || '.csv', n, n, 'done' from generate_series(1, 30) n`);
  await t.db.query(`insert into app.video_request (user_id, username, vehicle_id, cameras, period_from, period_to, status, created_at)
    select u.id, u.username, v.id, '{1,2}', now() - interval '2 hours', now() - interval '1 hour', 6, now() - n * interval '1 minute'
      from generate_series(1, 30) n, (select min(id) as id from mgt.vehicles) v, (select id, username from app.users where username = 'admin') u`);
  // journal rows whose texts hold the CSV's delimiter, quotes and line breaks
  const details = JSON.stringify({ note: 'a;b "c"\nd', formula: '=1+2' });
  await t.db.query(
    `insert into app.user_action (at, user_id, username, page_id, action, object, object_id, before, after, ip)
    select now() - n * interval '1 minute', u.id, u.username, '/handbooks/stops', 'update', 'mgt.stops', n::text, $1::jsonb, $1::jsonb, '10.0.0.1'
      from generate_series(1, 30) n, (select id, username from app.users where username = 'admin') u`,
    [details],
  );
  for (const [table, columns, values] of [
    ['app.vehicle_event', 'kind', "'connect'"],
    ['app.software_event', 'kind, severity, message', "'update', 'warning', '-5; \"done\"'"],
    ['app.video_event', 'kind, camera, message', "'download', 1, '@camera'"],
  ]) {
    await t.db.query(
      `insert into ${table} (at, vehicle_id, depot_number, details, ${columns})
      select now() - n * interval '1 minute', v.id, v.depot_number, $1::jsonb, ${values}
        from generate_series(1, 30) n, (select id, depot_number from mgt.vehicles order by id limit 1) v`,
      [details],
    );
  }
  await t.db.query(`insert into pdm.state_change (vehicle_id, node_id, tm, state, prev_state, value)
    select tv.vehicle_id, nd.id, now() - n * interval '1 hour', 'warning', 'normal', n * 0.1
      from generate_series(1, 30) n, (select * from pdm.tree_vehicle order by vehicle_id limit 1) tv
      join lateral (select id from pdm.node where tree_id = tv.tree_id and kind = 'sensor' order by id limit 1) nd on true`);
}

/**
 * Every declared report and journal exported over its longest allowed period, each keyed export in about four
 * batches (EXPORT_BATCH_ROWS set per report from its count): each file is complete (as many rows as the list
 * counts) and well formed, and the server serves on after it.
 */
describe.each(ENGINES)('every report and journal exported whole on %s', (engine) => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await startTestApp(engine, { switches: defaultSwitches(true) });
    admin = await t.login('admin', 'admin123');
    await seedRows(t);
  }, 180_000);
  afterAll(() => t.close());

  const get = (url: string) => t.app.inject({ method: 'GET', url, headers: { authorization: admin, 'x-timezone-offset': '180' } });

  /** What a report needs beyond its period (the sensor charts draw the series of chosen vehicles only). */
  const narrowing = async (path: string): Promise<string> => {
    if (path !== '/pdm/charts') return '';
    const [{ vehicle_id: vehicle }] = await t.db.query<{ vehicle_id: number }>(
      'select vehicle_id from pdm.tree_vehicle order by vehicle_id limit 1',
    );
    return `&vehicle=${vehicle}`;
  };

  it('has a source for every declared report', () => {
    expect(t.app.reports.bound.map((bound) => bound.report.path).sort()).toEqual(REPORTS.map((report) => report.path).sort());
  });

  it.each(REPORTS.map((report) => [report.path, report] as const))('%s', async (path, report) => {
    const url = reportApi(report);
    const period = `${longestPeriod(report)}${await narrowing(path)}`;
    const list = await get(`${url}?${period}&recordCount=1`);
    expect(list.statusCode, list.body).toBe(200);
    const { count, countExact } = list.json() as { count: number; countExact?: boolean };
    expect(countExact, 'a capped count cannot be compared').not.toBe(false);
    const keyed = t.app.reports.bound.find((bound) => bound.report.path === path)?.source.key !== undefined;
    if (keyed) {
      expect(count, 'rows enough for several batches').toBeGreaterThanOrEqual(BATCHES);
      t.app.config.exportBatchRows = Math.ceil(count / BATCHES);
    }
    for (const format of report.export) {
      const response = await get(`${url}/export?${period}&format=${format}`);
      expect(response.statusCode, `${format}: ${response.body.slice(0, 300)}`).toBe(200);
      const rows = format === 'csv' ? csvRows(response.body, report) : await xlsxRows(response.rawPayload, report);
      expect(rows, format).toHaveLength(count);
    }
    // the server is alive and well after the export
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/auth/current/', headers: { authorization: admin } })).statusCode).toBe(200);
  });
});
