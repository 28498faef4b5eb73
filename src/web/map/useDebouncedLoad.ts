import { useEffect, useState } from 'react';
import { isAbortError } from '../providers/httpClient';

export interface LoadState<T> {
  data: T | null;
  error: boolean;
  loading: boolean;
}

/**
 * Runs `load` when `key` changes (after `delay` ms of quiet), aborting the previous run; a null key clears
 * the data. For the layers that follow the view (stops, incidents) and the search box.
 */
export function useDebouncedLoad<T>(key: string | null, load: (signal: AbortSignal) => Promise<T>, delay = 300): LoadState<T> {
  const [state, setState] = useState<LoadState<T>>({ data: null, error: false, loading: false });
  useEffect(() => {
    if (key === null) {
      setState({ data: null, error: false, loading: false });
      return;
    }
    const controller = new AbortController();
    const timer = setTimeout(() => {
      setState((s) => ({ ...s, loading: true }));
      load(controller.signal).then(
        (data) => !controller.signal.aborted && setState({ data, error: false, loading: false }),
        (error: unknown) => !isAbortError(error) && !controller.signal.aborted && setState({ data: null, error: true, loading: false }),
      );
    }, delay);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
    // `key` stands for everything `load` reads
  }, [key, delay]);
  return state;
}
