import type { GetListParams, Identifier, RaRecord } from 'react-admin';
import type { ListResponse, RoleRecord as ApiRoleRecord } from '../../../shared/api';
import { getJson, request } from '../httpClient';
import { savingFields } from './fieldErrors';
import type { ResourceAdapter } from './adapter';

/** A role as GET /api/v1/roles returns it, as a react-admin record. */
export interface RoleRecord extends RaRecord, ApiRoleRecord {
  id: number;
}

export const ROLES_API = '/api/v1/roles';
const ROLE_FIELD_CODES = { role_name_exists: 'name' } as const;

type Row = Record<string, unknown>;

function compare(a: unknown, b: unknown): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  return String(a ?? '').localeCompare(String(b ?? ''), 'ru');
}

/**
 * The roles list is short and comes whole from the server (system roles first, then by name): search,
 * sort and paging are done here.
 */
export function pageOfRoles<R extends Row>(
  all: readonly R[],
  params: Pick<GetListParams, 'filter' | 'sort' | 'pagination'>,
): { data: R[]; total: number } {
  const search = String((params.filter as Row | undefined)?.q ?? '')
    .trim()
    .toLocaleLowerCase('ru');
  let rows = search
    ? all.filter((row) => `${String(row.name ?? '')} ${String(row.description ?? '')}`.toLocaleLowerCase('ru').includes(search))
    : [...all];
  const sort = params.sort;
  if (sort?.field) {
    const sign = sort.order === 'DESC' ? -1 : 1;
    rows = rows.sort((a, b) => sign * compare(a[sort.field], b[sort.field]));
  }
  const total = rows.length;
  if (params.pagination) {
    const { page, perPage } = params.pagination;
    rows = rows.slice((page - 1) * perPage, page * perPage);
  }
  return { data: rows, total };
}

const allRoles = async <R extends RaRecord>(signal?: AbortSignal) => (await getJson<ListResponse<R>>(ROLES_API, { signal })).list;

const roleBody = (data: Partial<Row>) => ({
  name: typeof data.name === 'string' ? data.name.trim() : data.name,
  description: data.description ?? null,
  permissions: data.permissions ?? {},
});

const save = (url: string, method: 'POST' | 'PUT', data: Partial<Row>) =>
  savingFields(ROLE_FIELD_CODES, async () => (await request<RoleRecord>(url, { method, body: roleBody(data) })).body);

/** react-admin's resource 'roles' over /api/v1/roles. */
export const rolesAdapter: ResourceAdapter = {
  getList: async <R extends RaRecord>(_resource: string, params: GetListParams) => pageOfRoles(await allRoles<R>(params.signal), params),
  getMany: async <R extends RaRecord>(_resource: string, { ids, signal }: { ids: Identifier[]; signal?: AbortSignal }) => {
    const wanted = new Set(ids.map(String));
    return { data: (await allRoles<R>(signal)).filter((role) => wanted.has(String(role.id))) };
  },
  create: async (_resource: string, { data }: { data: Partial<Row> }) => ({ data: await save(ROLES_API, 'POST', data) }),
  update: async (_resource: string, { id, data }: { id: Identifier; data: Partial<Row> }) => ({
    data: await save(`${ROLES_API}/${id}`, 'PUT', data),
  }),
};
