import type { DataProvider, GetListParams } from 'react-admin';
import { REPORTS } from '../../../shared/reports';
import { reportApi, reportResource } from '../../../shared/reports/types';
import { getJson } from '../httpClient';

/** The list answer of a report (src/server/reports/reportsRoutes.ts). */
interface ReportListResponse {
  list: Record<string, unknown>[];
  count: number;
  /** false: more than `count` rows (the registry counts a month of raw visits only so far). */
  countExact?: boolean;
  totals?: Record<string, unknown>;
  chart?: Record<string, unknown>[];
}

/** react-admin's getList result of a report: its page, count, and the totals and chart rows in meta. */
export interface ReportRows {
  data: (Record<string, unknown> & { id: string | number })[];
  total: number;
  meta: { totals?: Record<string, unknown>; chart?: Record<string, unknown>[]; countExact?: boolean };
}

const RESOURCES = new Map(REPORTS.map((report) => [reportResource(report), report]));

export const isReportResource = (resource: string) => RESOURCES.has(resource);

/**
 * The reports' resource (its console path without the slash: 'journal/useractions', 'adas/incidents-dynamic')
 * over the report's API. `filter` is already the API's query (src/client/reports/reportUrl.ts); rows
 * without an id (grouped counts) get their position as one.
 */
export const reportsAdapter: Partial<DataProvider> = {
  getList: (async (resource: string, params: Partial<GetListParams>) => {
    const report = RESOURCES.get(resource)!;
    const query = params.filter as Record<string, string | number>;
    const { list, count, countExact, totals, chart } = await getJson<ReportListResponse>(reportApi(report), {
      query,
      signal: params.signal,
    });
    const skip = Number(query.skipCount ?? 0);
    const data = list.map((row, i) => ({ ...row, id: (row.id as string | number | undefined) ?? skip + i }));
    return { data, total: count, meta: { totals, chart, countExact } } satisfies ReportRows;
  }) as DataProvider['getList'],
};
