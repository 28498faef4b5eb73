import { SUGGESTIONS_MAX, SUGGESTION_TEXT_MAX } from '../../../shared/constants';
import type { OptionsRequest, OptionsResponse } from '../../../shared/handbooks/api';
import type { HandbookType } from '../../../shared/handbooks/types';
import { postJson } from '../../../web/providers/httpClient';
import { useApiQuery } from '../../../web/providers/queries';
import { truncate } from '../../../shared/format';
import { useDebouncedValue } from '../../../web/components/useDebouncedValue';

export interface RefOption {
  value: number | string;
  label: string;
}

const SEARCH_DELAY_MS = 250;
const NONE: RefOption[] = [];

/** A suggestion's text as the list shows it: at most 75 characters (spec section 9), the cut marked. */
export const suggestionText = (text: string): string => truncate(text, SUGGESTION_TEXT_MAX);

type Match = OptionsRequest['match'];

/** POST /api/table/options: at most 50 choices of `field` of handbook `type`, read under that handbook's rights. */
export async function fetchOptions(
  type: HandbookType,
  field: string,
  search: { q?: string; values?: (number | string)[]; match?: Match },
  signal?: AbortSignal,
): Promise<RefOption[]> {
  const body: OptionsRequest = { config: { type }, field, limit: SUGGESTIONS_MAX, match: search.match };
  if (search.q?.trim()) body.q = search.q.trim();
  if (search.values?.length) body.values = search.values;
  return (await postJson<OptionsResponse>('/api/table/options', body, { signal })).list;
}

/**
 * Suggestions while a list is open, searched as the user types: rows of a link's target whose text
 * contains what was typed (stops through tripstops.stop_id, vehicles through dvr.vehicle_id...), or the
 * values of a field with choicesFrom that match `match`. The last suggestions stay while the next are read.
 */
export function useRefOptions(type: HandbookType, field: string, search: string, open: boolean, match?: Match) {
  const settled = useDebouncedValue(search, SEARCH_DELAY_MS);
  const query = useApiQuery(
    ['handbooks', 'ref-options', type, field, settled, match ?? null],
    (signal) => fetchOptions(type, field, { q: settled, match }, signal),
    { enabled: open, keepPrevious: true },
  );
  // typing shows the list as loading until its search is asked and answered
  return { options: query.data ?? NONE, loading: open && (query.isFetching || settled !== search) };
}

/** Labels of values the form already holds (an edited record's links, chosen filter values); undefined until read. */
export function useRefLabels(type: HandbookType, field: string, values: (number | string)[]): RefOption[] | undefined {
  return useApiQuery(['handbooks', 'ref-labels', type, field, values], (signal) => fetchOptions(type, field, { values }, signal), {
    enabled: values.length > 0,
  }).data;
}
