import { describe, expect, it } from 'vitest';
import { REPORTS, reportOf } from '../../src/shared/reports';
import { INCIDENTS_DYNAMIC } from '../../src/shared/reports/adas';
import { cellText, periodText } from '../../src/shared/reports/cells';
import { filterQuery, parseReportFilters, presetClock, presetOfPeriod, presetPeriod } from '../../src/shared/reports/filters';
import { USER_ACTIONS_JOURNAL } from '../../src/shared/reports/journals';
import { PDM_VEHICLE_DIAGNOSTIC } from '../../src/shared/reports/pdm';
import { defineReport, reportApi, sortableColumns } from '../../src/shared/reports/types';
import { CONSOLE_ROUTES } from '../../src/shared/routes';
import { SCREENS } from '../../src/client/screens';
import { readReportUrl, reportApiQuery, writeReportUrl } from '../../src/client/reports/reportUrl';
import { pivot, xAxisLayout } from '../../src/client/reports/ReportChart';
import { DAY_HOUR_LABELS, periodAxisLabels } from '../../src/client/components/TimeGridHeader';
import { bindReports } from '../../src/server/reports/reportSource';
import { reportQuerySchema } from '../../src/server/reports/reportsRoutes';

const example = defineReport({
  path: '/example/report',
  module: 'adas',
  menu: { group: 'adas', label: 'menu.example' },
  title: 'Пример',
  file: 'example',
  labels: 'reports.example',
  build: 'button',
  pageSize: 100,
  export: ['csv', 'xlsx'],
  defaultSort: { field: 'at', order: 'DESC' },
  filters: [
    { kind: 'period', name: 'period', label: 'p', maxDays: 31, required: true },
    { kind: 'vehicles', name: 'vehicle', label: 'v' },
    { kind: 'enum', name: 'kind', label: 'k', values: ['a', 'b'], labels: 'k' },
    { kind: 'choice', name: 'step', label: 's', values: ['day', 'week'], labels: 's', default: 'day' },
    { kind: 'text', name: 'q', label: 'q', maxLength: 10 },
  ],
  columns: [
    { name: 'at', header: 'Время', type: 'datetime', sortable: true },
    { name: 'n', header: 'Число', type: 'number', total: true },
  ],
});

describe('a report declaration', () => {
  it('gives the route, the menu entry and the screen of every declared report', () => {
    for (const report of REPORTS) {
      const route = CONSOLE_ROUTES.filter((r) => r.path === report.path);
      expect(route, report.path).toHaveLength(1);
      expect(route[0]).toMatchObject({
        module: report.module,
        section: report.section,
        group: report.menu.group,
        label: report.menu.label,
        built: true,
      });
      expect(SCREENS[report.path], report.path).toBeDefined();
      expect(reportOf(`${report.path}/`)).toBe(report);
    }
    expect(new Set(CONSOLE_ROUTES.map((r) => r.path)).size).toBe(CONSOLE_ROUTES.length);
    expect(reportApi(USER_ACTIONS_JOURNAL)).toBe('/api/v1/journals/useractions');
    expect(reportApi(INCIDENTS_DYNAMIC)).toBe('/api/v1/reports/adas/incidents-dynamic');
  });

  it('gives the API query schema: its filters bounded, its sortable columns, paging', () => {
    const schema = reportQuerySchema(example, 'list') as {
      properties: Record<string, Record<string, unknown>>;
      additionalProperties: boolean;
    };
    expect(Object.keys(schema.properties).sort()).toEqual([
      'from',
      'kind',
      'q',
      'recordCount',
      'skipCount',
      'sortField',
      'sortOrder',
      'step',
      'to',
      'vehicle',
    ]);
    expect(schema.additionalProperties).toBe(false);
    expect(schema.properties.sortField.enum).toEqual(sortableColumns(example));
    expect(schema.properties.q.maxLength).toBe(10);
    expect(schema.properties.recordCount).toMatchObject({ minimum: 1, maximum: 1000, default: 100 });
    const exportSchema = reportQuerySchema(example, 'export') as { properties: Record<string, Record<string, unknown>> };
    expect(exportSchema.properties.format.enum).toEqual(['csv', 'xlsx']);
  });

  it('a report without its query does not compile', () => {
    const source = { shape: 'summary' as const, select: () => ({ text: 'select 1', params: [] }) };
    expect(bindReports([example], { '/example/report': source })).toHaveLength(1);
    // @ts-expect-error the declaration at /example/report has no SQL bound to it
    expect(() => bindReports([example], {})).not.toThrow();
  });
});

describe('report filters', () => {
  const period = 'from=2025-03-01T00:00:00Z&to=2025-03-10T00:00:00Z';
  const parse = (query: string) => parseReportFilters(example, Object.fromEntries(new URLSearchParams(query)));

  it('reads a URL into checked values, and writes them back', () => {
    const parsed = parse(`${period}&vehicle=3,5&kind=a&q=x,%20y`);
    expect(parsed).toEqual({
      ok: true,
      values: {
        from: '2025-03-01T00:00:00.000Z',
        to: '2025-03-10T00:00:00.000Z',
        vehicle: [3, 5],
        kind: ['a'],
        step: 'day',
        q: ['x', 'y'],
      },
    });
    if (parsed.ok)
      expect(filterQuery(parsed.values)).toEqual({
        from: '2025-03-01T00:00:00.000Z',
        to: '2025-03-10T00:00:00.000Z',
        vehicle: '3,5',
        kind: 'a',
        step: 'day',
        q: 'x,y',
      });
  });

  it('refuses what the declaration does not allow, naming the field', () => {
    expect(parse('')).toEqual({ ok: false, code: 'report_period_required', field: 'period' });
    expect(parse('from=2025-03-01&to=2025-05-01')).toEqual({ ok: false, code: 'report_period_too_long', field: 'period' });
    expect(parse('from=yesterday&to=2025-03-01')).toMatchObject({ ok: false, code: 'bad_request', field: 'from' });
    expect(parse('from=2025-03-10&to=2025-03-01')).toMatchObject({ ok: false, field: 'to' });
    expect(parse(`${period}&vehicle=1,x`)).toMatchObject({ ok: false, field: 'vehicle' });
    expect(parse(`${period}&vehicle=99999999999`)).toMatchObject({ ok: false, field: 'vehicle' });
    expect(parse(`${period}&kind=c`)).toMatchObject({ ok: false, field: 'kind' });
    expect(parse(`${period}&step=year`)).toMatchObject({ ok: false, field: 'step' });
    expect(parse(`${period}&q=${'x'.repeat(11)}`)).toMatchObject({ ok: false, field: 'q' });
  });

  it('keeps the console state in the URL: a link reproduces filters, sort and page', () => {
    const state = readReportUrl(example, new URLSearchParams(`${period}&vehicle=7&sortField=n&sortOrder=ASC&page=3`));
    expect(state).toMatchObject({ built: true, invalid: false, page: 3, sort: { field: 'at', order: 'DESC' } });
    expect(state.filters.vehicle).toEqual([7]);
    expect(reportApiQuery(example, state)).toMatchObject({ vehicle: '7', skipCount: 200, recordCount: 100, sortField: 'at' });
    const sorted = readReportUrl(example, writeReportUrl(example, { ...state, sort: { field: 'at', order: 'ASC' } }));
    expect(sorted).toMatchObject({ page: 3, sort: { field: 'at', order: 'ASC' }, filters: state.filters });
    expect(readReportUrl(example, new URLSearchParams())).toMatchObject({ built: false, invalid: false });
    expect(readReportUrl(USER_ACTIONS_JOURNAL, new URLSearchParams())).toMatchObject({ built: true });
    expect(readReportUrl(example, new URLSearchParams('vehicle=abc'))).toMatchObject({ invalid: true, filters: {} });
  });

  it('marks a report built with none of its filters set (the vehicle diagnostic report): «Сформировать» is never ignored', () => {
    const search = writeReportUrl(PDM_VEHICLE_DIAGNOSTIC, { filters: {}, sort: PDM_VEHICLE_DIAGNOSTIC.defaultSort, page: 1 });
    expect(search.toString()).not.toBe('');
    expect(readReportUrl(PDM_VEHICLE_DIAGNOSTIC, search)).toMatchObject({ built: true, invalid: false, page: 1 });
    expect(readReportUrl(PDM_VEHICLE_DIAGNOSTIC, new URLSearchParams())).toMatchObject({ built: false });
  });

  it('period presets in local time, weeks from Monday', () => {
    const now = new Date(2025, 2, 12, 15, 30); // a Wednesday
    expect(presetPeriod('today', now)).toEqual({ from: new Date(2025, 2, 12), to: new Date(2025, 2, 12, 23, 59, 59) });
    expect(presetPeriod('yesterday', now)).toEqual({ from: new Date(2025, 2, 11), to: new Date(2025, 2, 11, 23, 59, 59) });
    expect(presetPeriod('thisWeek', now).from).toEqual(new Date(2025, 2, 10));
    expect(presetPeriod('last7Days', now).from).toEqual(new Date(2025, 2, 6));
    expect(presetPeriod('thisMonth', now).from).toEqual(new Date(2025, 2, 1));
    expect(presetPeriod('last30Days', now).from).toEqual(new Date(2025, 1, 11));
  });

  it('last week is the previous Monday to Sunday, from any day of this week', () => {
    const lastWeek = { from: new Date(2025, 2, 3), to: new Date(2025, 2, 9, 23, 59, 59) };
    expect(presetPeriod('lastWeek', new Date(2025, 2, 10, 0, 5))).toEqual(lastWeek); // Monday
    expect(presetPeriod('lastWeek', new Date(2025, 2, 12, 15, 30))).toEqual(lastWeek); // Wednesday
    expect(presetPeriod('lastWeek', new Date(2025, 2, 16, 23, 0))).toEqual(lastWeek); // Sunday
  });

  it("a period set to a preset's dates shows that preset; other dates show none", () => {
    const now = new Date(2025, 2, 12, 15, 30);
    const iso = (preset: 'yesterday' | 'lastWeek') => {
      const period = presetPeriod(preset, now);
      return [period.from.toISOString(), period.to.toISOString()] as const;
    };
    expect(presetOfPeriod(...iso('yesterday'), now)).toBe('yesterday');
    expect(presetOfPeriod(...iso('lastWeek'), now)).toBe('lastWeek');
    expect(presetOfPeriod(new Date(2025, 2, 4).toISOString(), new Date(2025, 2, 9, 23, 59, 59).toISOString(), now)).toBeUndefined();
    expect(presetOfPeriod(undefined, iso('yesterday')[1], now)).toBeUndefined();
  });

  it('a report of service days reads «Сегодня» at 01:00 as the service day still running, from 03:00 as the date', () => {
    const filter = { dayChangeMinutes: 180 };
    expect(presetPeriod('today', presetClock(filter, new Date(2025, 2, 12, 1, 0).getTime())).from).toEqual(new Date(2025, 2, 11));
    expect(presetPeriod('today', presetClock(filter, new Date(2025, 2, 12, 3, 0).getTime())).from).toEqual(new Date(2025, 2, 12));
    expect(presetPeriod('today', presetClock(undefined, new Date(2025, 2, 12, 1, 0).getTime())).from).toEqual(new Date(2025, 2, 12));
  });

  it('on a Sunday, when the last 7 days are this week, the preset chosen or declared is the one shown', () => {
    const sunday = new Date(2025, 2, 16, 0, 20);
    const period = presetPeriod('last7Days', sunday);
    const [from, to] = [period.from.toISOString(), period.to.toISOString()];
    expect(presetPeriod('thisWeek', sunday)).toEqual(period);
    expect(presetOfPeriod(from, to, sunday)).toBe('thisWeek');
    expect(presetOfPeriod(from, to, sunday, [undefined, 'last7Days'])).toBe('last7Days');
    expect(presetOfPeriod(from, to, sunday, ['thisWeek', 'last7Days'])).toBe('thisWeek');
  });
});

describe('report cells and charts', () => {
  it('formats by column type through the shared format module', () => {
    expect(cellText({ name: 'at', header: '', type: 'datetime' }, '2025-01-05T07:03:09Z', 180)).toBe('05.01.2025 10:03:09');
    expect(cellText({ name: 'n', header: '', type: 'number', decimals: 1 }, 1234.5)).toBe('1\u00a0234,5');
    expect(cellText({ name: 'id', header: '', type: 'integer' }, 123456)).toBe('123456');
    expect(cellText({ name: 'j', header: '', type: 'json' }, { a: 1 })).toBe('{"a":1}');
    expect(periodText('2025-03-01T00:00')).toBe('01.03.2025');
    expect(periodText('2025-03-01T07:00')).toBe('01.03.2025 07:00');
  });

  it('pivots long rows into one stacked bar per period', () => {
    const rows = [
      { period: '2025-03-02T00:00', incident_name: 'B', count: 1 },
      { period: '2025-03-01T00:00', incident_name: 'A', count: 2 },
      { period: '2025-03-01T00:00', incident_name: 'B', count: 3 },
    ];
    expect(pivot(rows, INCIDENTS_DYNAMIC.charts![0])).toEqual({
      series: ['A', 'B'],
      points: [
        { x: '2025-03-01T00:00', A: 2, B: 3 },
        { x: '2025-03-02T00:00', B: 1 },
      ],
    });
  });

  it('orders hours as numbers', () => {
    const rows = [
      { hour: 10, exchange: 1 },
      { hour: 5, exchange: 2 },
      { hour: 23, exchange: 3 },
    ];
    expect(pivot(rows, { kind: 'bar', title: 't', x: 'hour', value: 'exchange' }).points.map((p) => p.x)).toEqual(['5', '10', '23']);
  });
});

describe('chart and grid axes', () => {
  it('names every department on the x axis, slanted when the names do not fit side by side', () => {
    const departments = Array.from({ length: 12 }, (_, i) => `Территориальный отдел № ${i + 1}`);
    expect(xAxisLayout(departments, 1100)).toMatchObject({ interval: 0, angle: -40 });
    expect(xAxisLayout(departments, 1100).height).toBeGreaterThan(80);
    expect(xAxisLayout(['Т1', 'Т2', 'А10'], 1100)).toEqual({ interval: 0, angle: 0, height: 30 });
    expect(
      xAxisLayout(
        Array.from({ length: 90 }, (_, i) => `2025-01-${i}`),
        1100,
      ).interval,
    ).toBe('preserveEnd');
  });

  it('labels the hours of vehicle × time grids', () => {
    expect(DAY_HOUR_LABELS.filter(Boolean)).toEqual(['00', '03', '06', '09', '12', '15', '18', '21']);
    const hours = Array.from(
      { length: 30 },
      (_, i) => `2025-03-${String(12 + Math.floor(i / 24)).padStart(2, '0')}T${String(i % 24).padStart(2, '0')}:00`,
    );
    const labels = periodAxisLabels(hours);
    expect(labels.filter(Boolean)).toEqual(['12.03', '06', '12', '18', '13.03']);
    expect(labels[6]).toBe('06');
    const days = Array.from({ length: 10 }, (_, i) => `2025-03-${String(i + 1).padStart(2, '0')}`);
    expect(periodAxisLabels(days).filter(Boolean)).toEqual(['01.03', '08.03']);
  });
});
