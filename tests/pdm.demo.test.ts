import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/server/config';
import { filterQuery, presetPeriod, type ReportFilterValues } from '../src/shared/reports/filters';
import { PDM_REPORTS } from '../src/shared/reports/pdm';
import { periodFilter, reportApi } from '../src/shared/reports/types';
import { ENGINES } from './helpers/engines';
import { startTestApp, type TestApp } from './helpers/testApp';

/** The small demo's sensor history under the PDM reports' defaults: every report answers with data, the fleet looks plausible. */
describe.each(ENGINES)('PDM demo on %s', (engine) => {
  let t: TestApp;
  let admin: string;

  beforeAll(async () => {
    t = await startTestApp(engine, { switches: loadConfig({ DEMO_DATA: 'false', MODULES: 'pdm' }).switches });
    admin = await t.login('admin', 'admin123');
  });
  afterAll(() => t.close());

  const get = (url: string) => t.app.inject({ method: 'GET', url, headers: { authorization: admin, 'x-timezone-offset': '180' } });

  /** A report's defaults as the console's filter bar starts them: the period preset and the choices' defaults. */
  const defaults = (report: (typeof PDM_REPORTS)[number]) => {
    const values: ReportFilterValues = {};
    for (const filter of report.filters) if (filter.kind === 'choice') values[filter.name] = filter.default;
    const preset = periodFilter(report)?.preset;
    if (preset) {
      const { from, to } = presetPeriod(preset);
      Object.assign(values, { from: from.toISOString(), to: to.toISOString() });
    }
    return new URLSearchParams(filterQuery(values)).toString();
  };

  it.each(PDM_REPORTS.map((report) => [report.path, report] as const))('%s has data under its defaults', async (_path, report) => {
    const response = await get(`${reportApi(report)}?${defaults(report)}`);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().count).toBeGreaterThan(0);
  });

  it('covers the week of the status report: the healthy sensors are normal most of it, «Нет данных» is the exception', async () => {
    const report = PDM_REPORTS.find((r) => r.path === '/pdm/equipment-status-report')!;
    const rows = (await get(`${reportApi(report)}?${defaults(report)}&recordCount=1000`)).json().list as {
      normal_h: number;
      no_data_h: number;
      normal_share: number;
    }[];
    const hours = rows.reduce((sum, r) => sum + r.normal_h, 0);
    const silent = rows.reduce((sum, r) => sum + r.no_data_h, 0);
    expect(silent / (hours + silent)).toBeLessThan(0.2);
    const median = rows.map((r) => r.normal_share).sort((a, b) => a - b)[Math.floor(rows.length / 2)];
    expect(median).toBeGreaterThan(80);
  });

  it('gives the heat grid and the charts a whole default period', async () => {
    const heatmap = PDM_REPORTS.find((r) => r.path === '/pdm/heatmap')!;
    const heat = (await get(`/api/v1/pdm/heat?${defaults(heatmap)}`)).json() as { cells: { period: string }[] };
    const days = new Set(heat.cells.map((c) => c.period.slice(0, 10)));
    expect(days.size).toBeGreaterThanOrEqual(7);
    const charts = PDM_REPORTS.find((r) => r.path === '/pdm/charts')!;
    const chart = await get(`/api/v1/pdm/chart?${defaults(charts)}`);
    expect(chart.statusCode, chart.body).toBe(200);
    expect(chart.json().series.length).toBeGreaterThan(0);
    expect(chart.json().points.length).toBeGreaterThan(0);
  });
});
