import type { GetListParams, RaRecord } from 'react-admin';
import { BC_API } from '../../../shared/bc/tasks';
import type { ListResponse } from '../../../shared/api';
import { getJson } from '../httpClient';
import { filterValues, idListFilter, pageQuery, sortQuery, textFilter, type Query } from './listQuery';
import type { ResourceAdapter } from './adapter';

/** react-admin's resource of the ticket-control orders (/bc/controllertask) over GET /api/v1/bc/tasks. */
export const TASKS_RESOURCE = 'bc/tasks';

/** The columns GET /api/v1/bc/tasks sorts by (taskListQuery of the server). */
const TASK_SORT_FIELDS = ['number', 'date', 'department', 'status'] as const;

/**
 * The list query: the filters are the API's own parameters (period from/to, department, status, worker), not
 * the generic `filter` JSON (the tasks API has no such parameter); sort and page as everywhere.
 */
export function tasksListQuery(params: Pick<GetListParams, 'filter' | 'sort' | 'pagination'>): Query {
  const filter = (params.filter ?? {}) as Record<string, unknown>;
  const query: Query = { ...sortQuery(params.sort, TASK_SORT_FIELDS), ...pageQuery(params.pagination) };
  const values: Query = {
    from: textFilter(filter.from),
    to: textFilter(filter.to),
    department: idListFilter(filter.department),
    status: filterValues(filter.status).join(','),
    worker: textFilter(filter.worker),
  };
  for (const [key, value] of Object.entries(values)) if (value !== '') query[key] = value;
  return query;
}

/** Only the list differs: reading and deleting one order follow the generic /api/v1/bc/tasks/{id}. */
export const bcTasksAdapter: ResourceAdapter = {
  getList: async <R extends RaRecord>(_resource: string, params: GetListParams) => {
    const { list, count } = await getJson<ListResponse<R>>(BC_API.tasks, { query: tasksListQuery(params), signal: params.signal });
    return { data: list, total: count };
  },
};
