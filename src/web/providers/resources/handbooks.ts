import type {
  CreateParams,
  DeleteManyParams,
  DeleteParams,
  GetListParams,
  GetManyParams,
  GetOneParams,
  RaRecord,
  UpdateParams,
} from 'react-admin';
import type {
  DeleteResponse,
  ExportRequest,
  Filters,
  FilterValue,
  ListRequest,
  ListResponse,
  ListSort,
  SaveRequest,
} from '../../../shared/handbooks/api';
import { columnsOf, displayKey, type Column } from '../../../shared/handbooks/fields';
import { handbookSchema } from '../../../../schemas/index';
import type { HandbookSchema } from '../../../shared/handbooks/types';
import type { Row } from '../../../shared/handbooks/validation';
import { postJson } from '../httpClient';
import type { ResourceAdapter } from './adapter';

/**
 * The handbooks (spec section 2, /handbooks/table/:handbookType): react-admin resource
 * 'handbooks/table/<type>', the console path, so that react-admin's access checks (authProvider.canAccess)
 * read that handbook's permission; over the handbook service (/api/table/*, spec section 7). Records carry `id` = the
 * handbook's primary key
 * beside the API's own columns; react-admin's filter values become the service's typed filters.
 */
export const HANDBOOK_RESOURCE_PREFIX = 'handbooks/table/';

export const handbookResource = (type: string): string => `${HANDBOOK_RESOURCE_PREFIX}${type}`;

export function schemaOfResource(resource: string): HandbookSchema {
  const schema = handbookSchema(resource.slice(HANDBOOK_RESOURCE_PREFIX.length));
  if (!schema) throw new Error(`unknown handbook resource ${resource}`);
  return schema;
}

/** Range filters of the list: `<column>_gte` and `<column>_lte` (react-admin's convention). */
export const RANGE_FROM = '_gte';
export const RANGE_TO = '_lte';

const RANGE_KINDS = new Set(['int', 'bigint', 'number', 'port', 'date', 'datetime', 'minutes']);

const isEmpty = (value: unknown): boolean => value === undefined || value === '' || (Array.isArray(value) && value.length === 0);

function plainValue(column: Column, value: unknown): FilterValue | undefined {
  if (isEmpty(value)) return undefined;
  if (Array.isArray(value)) return value as (string | number | null)[];
  if (column.field.kind === 'boolean') return value === true || value === 'true';
  if (typeof value === 'string' || typeof value === 'number' || value === null) return value;
  return undefined;
}

/** react-admin's filter values as the service's filters (only names of the handbook's columns). */
export function toServiceFilters(schema: HandbookSchema, values: Record<string, unknown> | undefined): Filters {
  const filters: Filters = {};
  if (!values) return filters;
  if (typeof values.q === 'string' && values.q.trim()) filters.q = values.q.trim();
  for (const column of columnsOf(schema)) {
    const plain = plainValue(column, values[column.name]);
    if (plain !== undefined) filters[column.name] = plain;
    if (!RANGE_KINDS.has(column.field.kind)) continue;
    const from = values[column.name + RANGE_FROM];
    const to = values[column.name + RANGE_TO];
    if (isEmpty(from) && isEmpty(to)) continue;
    const range: { from?: string | number; to?: string | number } = {};
    if (!isEmpty(from)) range.from = from as string | number;
    if (!isEmpty(to)) range.to = to as string | number;
    filters[column.name] = range;
  }
  return filters;
}

/** A link column sorts by the text the user sees, not by its key. */
export function toServiceSort(schema: HandbookSchema, sort: GetListParams['sort'] | undefined): ListSort {
  if (!sort?.field) return schema.defaultSort;
  const column = columnsOf(schema).find((item) => item.name === sort.field);
  if (!column) return schema.defaultSort;
  const field = column.field.kind === 'ref' ? displayKey(column.name) : column.name;
  return { field, order: sort.order === 'ASC' ? 'ASC' : 'DESC' };
}

export function listRequest(schema: HandbookSchema, params: Pick<GetListParams, 'filter' | 'sort' | 'pagination'>): ListRequest {
  return {
    config: { type: schema.type },
    filters: toServiceFilters(schema, params.filter as Record<string, unknown>),
    sort: toServiceSort(schema, params.sort),
    page: params.pagination?.page ?? 1,
    perPage: params.pagination?.perPage,
  };
}

export function exportRequest(
  schema: HandbookSchema,
  filter: Record<string, unknown>,
  sort: GetListParams['sort'] | undefined,
): ExportRequest {
  return { config: { type: schema.type }, filters: toServiceFilters(schema, filter), sort: toServiceSort(schema, sort) };
}

const withId = (schema: HandbookSchema, row: Row): RaRecord => ({ ...row, id: row[schema.primaryKey] as RaRecord['id'] });

/** The row a save sends: the handbook's columns and widgets, without link texts or react-admin's id. */
export function saveRow(schema: HandbookSchema, data: Record<string, unknown>): Row {
  const names = new Set([...columnsOf(schema).map((column) => column.name), ...schema.fields.map((field) => field.name)]);
  const row: Row = {};
  for (const [key, value] of Object.entries(data)) if (names.has(key)) row[key] = value;
  return row;
}

async function listOf(schema: HandbookSchema, body: ListRequest, signal?: AbortSignal): Promise<{ data: RaRecord[]; total: number }> {
  const { list, count } = await postJson<ListResponse>('/api/table/list', body, { signal });
  return { data: list.map((row) => withId(schema, row)), total: count };
}

async function save(schema: HandbookSchema, data: Record<string, unknown>): Promise<{ data: RaRecord }> {
  const body: SaveRequest = { config: { type: schema.type }, row: saveRow(schema, data) };
  return { data: withId(schema, await postJson<Row>('/api/table/element/save', body)) };
}

export const handbooksAdapter: ResourceAdapter = {
  getList: (resource: string, params: GetListParams) => {
    const schema = schemaOfResource(resource);
    return listOf(schema, listRequest(schema, params), params.signal);
  },
  getOne: async (resource: string, { id, signal }: GetOneParams) => {
    const schema = schemaOfResource(resource);
    const { data } = await listOf(schema, { config: { type: schema.type }, filters: { [schema.primaryKey]: [id] }, perPage: 1 }, signal);
    if (!data[0]) throw new Error('ra.notification.item_doesnt_exist');
    return { data: data[0] };
  },
  getMany: async (resource: string, { ids, signal }: GetManyParams) => {
    const schema = schemaOfResource(resource);
    if (ids.length === 0) return { data: [] };
    return {
      data: (await listOf(schema, { config: { type: schema.type }, filters: { [schema.primaryKey]: ids }, perPage: ids.length }, signal))
        .data,
    };
  },
  create: (resource: string, { data }: CreateParams) => save(schemaOfResource(resource), data),
  update: (resource: string, { id, data }: UpdateParams) => {
    const schema = schemaOfResource(resource);
    // the record's own key keeps its type; react-admin's id may be the address's text
    return save(schema, { ...data, [schema.primaryKey]: data[schema.primaryKey] ?? id });
  },
  delete: async (resource: string, { previousData, id }: DeleteParams) => {
    const schema = schemaOfResource(resource);
    const row = { [schema.primaryKey]: id };
    await postJson<DeleteResponse>('/api/table/list/deleteRA', { config: { type: schema.type }, row });
    return { data: previousData ?? { id } };
  },
  deleteMany: async (resource: string, { ids }: DeleteManyParams) => {
    const schema = schemaOfResource(resource);
    await postJson<DeleteResponse>('/api/table/list/delete', { config: { type: schema.type }, ids });
    return { data: ids };
  },
};
