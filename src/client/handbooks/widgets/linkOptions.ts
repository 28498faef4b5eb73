import type { OptionsRequest, OptionsResponse } from '../../../shared/handbooks/api';
import { SUGGESTION_TEXT_MAX, SUGGESTIONS_MAX } from '../../../shared/constants';
import type { HandbookType } from '../../../shared/handbooks/types';
import { postJson } from '../../providers/httpClient';

export interface LinkOption {
  value: number;
  /** The text shown in the suggestion list, at most SUGGESTION_TEXT_MAX characters. */
  label: string;
}

/** A suggestion text cut to 75 characters (spec section 9), the cut marked with an ellipsis. */
export function suggestionText(text: string, max = SUGGESTION_TEXT_MAX): string {
  const chars = Array.from(text);
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join('')}…`;
}

/** The suggestion list: at most 50 options (spec section 9), numeric values, labels cut. */
export function toLinkOptions(list: OptionsResponse['list']): LinkOption[] {
  return list.slice(0, SUGGESTIONS_MAX).map((option) => ({ value: Number(option.value), label: suggestionText(option.label ?? String(option.value)) }));
}

/**
 * Choices of a link column through POST /api/table/options, read under the rights of `type`: stops through
 * tripstops.stop_id, vehicles through dvr.vehicle_id.
 */
export async function fetchLinkOptions(
  type: HandbookType,
  field: string,
  search: { q?: string; values?: number[] },
  signal?: AbortSignal,
): Promise<LinkOption[]> {
  const body: OptionsRequest = { config: { type }, field, limit: SUGGESTIONS_MAX };
  if (search.q?.trim()) body.q = search.q.trim();
  if (search.values?.length) body.values = search.values;
  const answer = await postJson<OptionsResponse>('/api/table/options', body, { signal });
  return toLinkOptions(answer.list);
}
