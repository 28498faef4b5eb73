import { useEffect, useState } from 'react';
import type { HandbookType } from '../../../shared/handbooks/types';
import { isAbortError } from '../../providers/httpClient';
import { fetchLinkOptions, type LinkOption } from './linkOptions';

const SEARCH_DELAY_MS = 250;

/** Suggestions of a link while its list is open, searched as the user types (at most 50). */
export function useLinkSearch(type: HandbookType, field: string, search: string, open: boolean) {
  const [options, setOptions] = useState<LinkOption[]>([]);
  const [loading, setLoading] = useState(false);
  useEffect(() => {
    if (!open) return undefined;
    const controller = new AbortController();
    setLoading(true);
    const timer = setTimeout(() => {
      fetchLinkOptions(type, field, { q: search }, controller.signal)
        .then(setOptions)
        .catch((error: unknown) => { if (!isAbortError(error)) setOptions([]); })
        .finally(() => { if (!controller.signal.aborted) setLoading(false); });
    }, SEARCH_DELAY_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [type, field, search, open]);
  return { options, loading };
}
