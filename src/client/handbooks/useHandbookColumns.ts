import { useCallback } from 'react';
import type { ColumnsResponse, ColumnsSaveRequest } from '../../shared/handbooks/api';
import { defaultVisibleFields } from '../../shared/handbooks/fields';
import type { Field, HandbookSchema } from '../../shared/handbooks/types';
import { getJson, postJson } from '../../web/providers/httpClient';
import { useApiQuery, webQueries } from '../../web/providers/queries';
import { isTripStops } from './handbookForm';

/** Fields a user may show as list columns (trip stops are a separate editor, not a column). */
export function columnFields(schema: HandbookSchema): Field[] {
  return schema.fields.filter((field) => !isTripStops(field));
}

/**
 * The visible columns after turning one on or off, in the schema's order; null when the change is
 * refused: turning off the last visible column is ignored (spec section 5).
 */
export function toggledColumns(schema: HandbookSchema, visible: readonly string[], name: string): string[] | null {
  const next = visible.includes(name) ? visible.filter((item) => item !== name) : [...visible, name];
  if (next.length === 0) return null;
  const order = columnFields(schema).map((field) => field.name);
  return order.filter((item) => next.includes(item));
}

/** The user's visible columns of a handbook, kept per user on the server (/api/v1/users/columns). */
export function useHandbookColumns(schema: HandbookSchema) {
  const key = ['users', 'columns', schema.type];
  const query = useApiQuery(key, async (signal) => {
    const answer = await getJson<ColumnsResponse>('/api/v1/users/columns', { signal, query: { table: schema.type } });
    return answer.fields.length ? answer.fields : defaultVisibleFields(schema);
  });
  // without the user's choice (none saved, or not readable) the schema's default columns
  const visible = query.data ?? (query.isError ? defaultVisibleFields(schema) : null);
  const setVisible = useCallback((next: string[]) => webQueries.setQueryData(['users', 'columns', schema.type], next), [schema.type]);

  const toggle = useCallback(
    (name: string) => {
      if (!visible) return;
      const next = toggledColumns(schema, visible, name);
      if (!next) return;
      setVisible(next);
      const body: ColumnsSaveRequest = { table: schema.type, columns: next };
      postJson<ColumnsResponse>('/api/v1/users/columns', body).catch(() => setVisible(visible));
    },
    [schema, visible, setVisible],
  );

  return { visible, toggle };
}
