import type { DataProvider, GetListParams, RaRecord } from 'react-admin';
import type { ListResponse } from '../../../shared/api';
import { getJson } from '../httpClient';
import { filterValues, idListFilter, pageQuery, sortQuery, textFilter, type Query } from './listQuery';

/**
 * The journals (spec section 2, /journal/*): react-admin resource 'journal/<id>' (the console path without
 * its slash) over GET /api/v1/journals/<id>. Filters: from and to (a local date-time of the input, sent as
 * ISO 8601), user or vehicle (ids), type (one value or several).
 */
export const JOURNAL_RESOURCE_PREFIX = 'journal/';

export const journalApi = (resource: string) => `/api/v1/journals/${resource.slice(JOURNAL_RESOURCE_PREFIX.length)}`;

/** A date-time input value ('2025-01-31T10:00', local) as ISO 8601, or '' when empty or invalid. */
export function isoTime(value: unknown): string {
  const text = textFilter(value);
  if (!text) return '';
  const time = new Date(text);
  return Number.isNaN(time.getTime()) ? '' : time.toISOString();
}

function typeFilter(value: unknown): string {
  return filterValues(value).join(',');
}

/** The filters of a journal list or export as its query string. */
export function journalFilterQuery(filter: Record<string, unknown> | undefined): Query {
  const query: Query = {};
  const set = (key: string, value: string) => value && (query[key] = value);
  set('from', isoTime(filter?.from));
  set('to', isoTime(filter?.to));
  set('user', idListFilter(filter?.user));
  set('vehicle', idListFilter(filter?.vehicle));
  set('type', typeFilter(filter?.type));
  return query;
}

export function journalListQuery(params: Pick<GetListParams, 'filter' | 'sort' | 'pagination'>, sortable: readonly string[]): Query {
  return { ...journalFilterQuery(params.filter as Record<string, unknown>), ...sortQuery(params.sort, sortable), ...pageQuery(params.pagination) };
}

/** The sortable columns of each journal (journalDefinitions.ts on the server). */
export const JOURNAL_SORTABLE: Readonly<Record<string, readonly string[]>> = {
  useractions: ['id', 'at', 'username', 'action', 'object', 'page_id'],
  eventsts: ['id', 'at', 'kind', 'depot_number', 'vehicle_id'],
  eventspo: ['id', 'at', 'kind', 'severity', 'depot_number', 'vehicle_id'],
  video: ['id', 'at', 'kind', 'camera', 'depot_number', 'vehicle_id'],
  adas: ['id', 'tm', 'incident_type', 'grade', 'speed', 'depot_number', 'vehicle_id'],
};

export const journalsAdapter = {
  getList: async <R extends RaRecord>(resource: string, params: GetListParams) => {
    const sortable = JOURNAL_SORTABLE[resource.slice(JOURNAL_RESOURCE_PREFIX.length)] ?? [];
    const { list, count } = await getJson<ListResponse<R>>(journalApi(resource), { query: journalListQuery(params, sortable), signal: params.signal });
    return { data: list, total: count };
  },
} as unknown as Partial<DataProvider>;
