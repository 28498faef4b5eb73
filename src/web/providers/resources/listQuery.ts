import type { GetListParams } from 'react-admin';

/** Query-string values of a list call. */
export type Query = Record<string, string | number>;

/** react-admin's page and perPage as the API's skipCount and recordCount (spec section 7). */
export function pageQuery(pagination: GetListParams['pagination'] | undefined): Query {
  if (!pagination) return {};
  const { page, perPage } = pagination;
  return { skipCount: Math.max(0, (page - 1) * perPage), recordCount: perPage };
}

/** react-admin's sort as sortField and sortOrder, only for a field the API sorts by. */
export function sortQuery(sort: GetListParams['sort'] | undefined, sortable: readonly string[]): Query {
  if (!sort || !sortable.includes(sort.field)) return {};
  return { sortField: sort.field, sortOrder: sort.order === 'ASC' ? 'ASC' : 'DESC' };
}

/** A filter value as a trimmed string ('' when absent). */
export function textFilter(value: unknown): string {
  return typeof value === 'string' ? value.trim() : typeof value === 'number' ? String(value) : '';
}

/** Values of a filter: a list, or one text of values separated by commas, semicolons or spaces. */
export function filterValues(value: unknown): string[] {
  const values = Array.isArray(value) ? value : value === undefined || value === null ? [] : [value];
  return values
    .flatMap((item) => String(item).split(/[\s,;]+/))
    .map((item) => item.trim())
    .filter(Boolean);
}

/** A filter of one id or several as the API's comma list ('' when none); what is not an id is left out. */
export function idListFilter(value: unknown): string {
  return filterValues(value)
    .filter((item) => /^\d{1,10}$/.test(item))
    .join(',');
}
