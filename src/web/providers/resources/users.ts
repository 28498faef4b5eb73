import type { GetListParams, Identifier, RaRecord } from 'react-admin';
import type { ListResponse, UserRecord as ApiUserRecord } from '../../../shared/api';
import { USER_SORT_FIELDS } from '../../../shared/users/api';
import { getJson, request } from '../httpClient';
import { savingFields } from './fieldErrors';
import { pageQuery, sortQuery, textFilter, type Query } from './listQuery';
import type { ResourceAdapter } from './adapter';

/** A user as GET /api/v1/users returns it, as a react-admin record. */
export interface UserRecord extends RaRecord, ApiUserRecord {
  id: number;
}

export const USERS_API = '/api/v1/users';

/** The server's codes of a refused user save and the field each is about. */
export const USER_FIELD_CODES = {
  username_required: 'username',
  username_exists: 'username',
  'username must be longer than or equal to 3 characters': 'username',
  email_required: 'email',
  email_exists: 'email',
  email_cant_be_changed: 'email',
  password_required: 'password',
  bad_password: 'password',
  worker_taken: 'workerId',
} as const;

/** The list query: the search text `q` as `filter`, sort, page. */
export function usersListQuery(params: Pick<GetListParams, 'filter' | 'sort' | 'pagination'>): Query {
  const query: Query = { ...sortQuery(params.sort, USER_SORT_FIELDS), ...pageQuery(params.pagination) };
  const search = textFilter((params.filter as Record<string, unknown> | undefined)?.q);
  if (search) query.filter = search;
  return query;
}

const WRITABLE = ['username', 'email', 'password', 'firstName', 'lastName', 'title', 'isBlocked', 'roles', 'workerId'] as const;

/** The body of a save: only the fields the API takes; an empty password means "unchanged". */
export function userBody(data: Partial<Record<string, unknown>>): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const key of WRITABLE) if (data[key] !== undefined) body[key] = data[key];
  if (typeof body.password !== 'string' || body.password === '') delete body.password;
  if (typeof body.email === 'string') body.email = body.email.trim() === '' ? null : body.email.trim();
  if (typeof body.username === 'string') body.username = body.username.trim();
  return body;
}

const save = <T>(url: string, method: 'POST' | 'PUT', data: Partial<Record<string, unknown>>) =>
  savingFields(USER_FIELD_CODES, async () => (await request<T>(url, { method, body: userBody(data) })).body);

/** react-admin's resource 'users' over the REST paths of spec section 7. */
export const usersAdapter: ResourceAdapter = {
  getList: async <R extends RaRecord>(_resource: string, params: GetListParams) => {
    const { list, count } = await getJson<ListResponse<R>>(USERS_API, { query: usersListQuery(params), signal: params.signal });
    return { data: list, total: count };
  },
  getMany: async <R extends RaRecord>(_resource: string, { ids, signal }: { ids: Identifier[]; signal?: AbortSignal }) => ({
    data: await Promise.all(ids.map((id) => getJson<R>(`${USERS_API}/${id}`, { signal }))),
  }),
  create: async (_resource: string, { data }: { data: Partial<Record<string, unknown>> }) => ({
    data: await save<UserRecord>(`${USERS_API}/`, 'POST', data),
  }),
  update: async (_resource: string, { id, data }: { id: Identifier; data: Partial<Record<string, unknown>> }) => ({
    data: await save<UserRecord>(`${USERS_API}/${id}`, 'PUT', data),
  }),
};
