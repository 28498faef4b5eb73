import { useEffect, useState } from 'react';
import { SUGGESTIONS_MAX, SUGGESTION_TEXT_MAX } from '../../../shared/constants';
import type { OptionsRequest, OptionsResponse } from '../../../shared/handbooks/api';
import type { Field, HandbookSchema, RefField } from '../../../shared/handbooks/types';
import { isAbortError, postJson } from '../../providers/httpClient';
import { truncate } from '../handbookFormat';

export interface RefOption {
  value: number | string;
  label: string;
}

const SEARCH_DELAY_MS = 250;

/** A suggestion's text as the list shows it (spec section 9: at most 75 characters). */
export const suggestionText = (option: RefOption): string => truncate(option.label, SUGGESTION_TEXT_MAX);

type Match = OptionsRequest['match'];

/**
 * Suggestions of a link input (rows of the linked handbook whose text contains what was typed) or of a
 * field with choicesFrom (values matching `match`), at most 50 (spec section 9), read through
 * POST /api/table/options under the edited handbook's rights.
 */
export function useRefOptions(schema: HandbookSchema, field: Field, search: string, open: boolean, match?: Match) {
  const matchKey = JSON.stringify(match ?? null);
  const [options, setOptions] = useState<RefOption[]>([]);
  const [loading, setLoading] = useState(false);
  useEffect(() => {
    if (!open) return undefined;
    const controller = new AbortController();
    setLoading(true);
    const timer = setTimeout(() => {
      const body: OptionsRequest = { config: { type: schema.type }, field: field.name, q: search.trim() || undefined, limit: SUGGESTIONS_MAX, match };
      postJson<OptionsResponse>('/api/table/options', body, { signal: controller.signal })
        .then((answer) => setOptions(answer.list))
        .catch((error: unknown) => { if (!isAbortError(error)) setOptions([]); })
        .finally(() => { if (!controller.signal.aborted) setLoading(false); });
    }, SEARCH_DELAY_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
    // the match object is compared by its content
  }, [schema.type, field.name, search, open, matchKey]);
  return { options, loading };
}

/** Labels of values the form already holds (an edited record's links, chosen filter values). */
export async function resolveRefLabels(schema: HandbookSchema, field: RefField, values: (number | string)[]): Promise<RefOption[]> {
  if (values.length === 0) return [];
  const body: OptionsRequest = { config: { type: schema.type }, field: field.name, values, limit: SUGGESTIONS_MAX };
  return (await postJson<OptionsResponse>('/api/table/options', body)).list;
}
