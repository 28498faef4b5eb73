import { useEffect, useState } from 'react';
import { SUGGESTIONS_MAX, SUGGESTION_TEXT_MAX } from '../../../shared/constants';
import type { OptionsRequest, OptionsResponse } from '../../../shared/handbooks/api';
import type { HandbookType } from '../../../shared/handbooks/types';
import { isAbortError, postJson } from '../../../web/providers/httpClient';
import { truncate } from '../../../shared/format';

export interface RefOption {
  value: number | string;
  label: string;
}

const SEARCH_DELAY_MS = 250;

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
 * values of a field with choicesFrom that match `match`.
 */
export function useRefOptions(type: HandbookType, field: string, search: string, open: boolean, match?: Match) {
  const [options, setOptions] = useState<RefOption[]>([]);
  const [loading, setLoading] = useState(false);
  const matchKey = JSON.stringify(match ?? null);
  useEffect(() => {
    if (!open) return undefined;
    const controller = new AbortController();
    setLoading(true);
    const timer = setTimeout(() => {
      fetchOptions(type, field, { q: search, match }, controller.signal)
        .then(setOptions)
        .catch((error: unknown) => {
          if (!isAbortError(error)) setOptions([]);
        })
        .finally(() => {
          if (!controller.signal.aborted) setLoading(false);
        });
    }, SEARCH_DELAY_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
    // the match object is compared by its content
  }, [type, field, search, open, matchKey]);
  return { options, loading };
}

/** Labels of values the form already holds (an edited record's links, chosen filter values). */
export function resolveRefLabels(type: HandbookType, field: string, values: (number | string)[]): Promise<RefOption[]> {
  return values.length ? fetchOptions(type, field, { values }) : Promise.resolve([]);
}
