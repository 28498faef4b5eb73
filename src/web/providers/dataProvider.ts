import type {
  CreateParams,
  DataProvider,
  DeleteManyParams,
  DeleteParams,
  GetListParams,
  GetListResult,
  GetManyParams,
  GetManyReferenceParams,
  GetOneParams,
  Identifier,
  RaRecord,
  UpdateManyParams,
  UpdateParams,
} from 'react-admin';
import type { ListResponse } from '../../shared/api';
import { getJson, request } from './httpClient';
import { withResourceAdapters } from './resources';

/**
 * react-admin's dataProvider over the REST convention of DESIGN.md (API): a resource is an API path
 * under /api/v1 (resource 'users' → /api/v1/users); lists take `filter` (JSON), `sortField`,
 * `sortOrder`, `skipCount` and `recordCount` and return `{ list, count }` (spec section 7, Users);
 * GET/PUT/DELETE /{id}, POST / for create. Areas with their own service (handbooks over /api/table/*)
 * add their own provider and combine it with this one.
 */
const base = (resource: string) => `/api/v1/${resource.replace(/^\/+|\/+$/g, '')}`;

type Query = Record<string, string | number>;

async function list<R extends RaRecord>(resource: string, query: Query, signal?: AbortSignal): Promise<GetListResult<R>> {
  const { list: data, count } = await getJson<ListResponse<R>>(base(resource), { query, signal });
  return { data, total: count };
}

function listQuery(filter: object | undefined, params: Pick<GetListParams, 'pagination' | 'sort'>): Query {
  const query: Query = { filter: JSON.stringify(filter ?? {}) };
  if (params.sort) Object.assign(query, { sortField: params.sort.field, sortOrder: params.sort.order });
  if (params.pagination) {
    const { page, perPage } = params.pagination;
    Object.assign(query, { skipCount: (page - 1) * perPage, recordCount: perPage });
  }
  return query;
}

async function send<R>(url: string, method: 'POST' | 'PUT' | 'DELETE', body?: unknown): Promise<R> {
  return (await request<R>(url, { method, body })).body;
}

const restProvider: DataProvider = {
  getList: <R extends RaRecord>(resource: string, params: GetListParams) =>
    list<R>(resource, listQuery(params.filter, params), params.signal),
  getOne: async <R extends RaRecord>(resource: string, { id, signal }: GetOneParams<R>) => ({
    data: await getJson<R>(`${base(resource)}/${id}`, { signal }),
  }),
  getMany: async <R extends RaRecord>(resource: string, { ids, signal }: GetManyParams<R>) => ({
    data: (await list<R>(resource, { filter: JSON.stringify({ id: ids }) }, signal)).data,
  }),
  getManyReference: <R extends RaRecord>(resource: string, params: GetManyReferenceParams) =>
    list<R>(resource, listQuery({ ...params.filter, [params.target]: params.id }, params), params.signal),
  create: async <R extends Omit<RaRecord, 'id'>, Result extends RaRecord = R & { id: Identifier }>(
    resource: string,
    { data }: CreateParams,
  ) => ({ data: await send<Result>(`${base(resource)}/`, 'POST', data) }),
  update: async <R extends RaRecord>(resource: string, { id, data }: UpdateParams) => ({
    data: await send<R>(`${base(resource)}/${id}`, 'PUT', data),
  }),
  updateMany: async (resource: string, { ids, data }: UpdateManyParams) => {
    await Promise.all(ids.map((id: Identifier) => send(`${base(resource)}/${id}`, 'PUT', data)));
    return { data: ids };
  },
  delete: async <R extends RaRecord>(resource: string, { id, previousData }: DeleteParams<R>) => {
    await send(`${base(resource)}/${id}`, 'DELETE');
    return { data: previousData ?? ({ id } as R) };
  },
  deleteMany: async <R extends RaRecord>(resource: string, { ids }: DeleteManyParams<R>) => {
    await Promise.all(ids.map((id) => send(`${base(resource)}/${id}`, 'DELETE')));
    return { data: ids };
  },
};

/** The REST provider with the resources that differ (users, roles, journals: providers/resources). */
export const dataProvider: DataProvider = withResourceAdapters(restProvider);
