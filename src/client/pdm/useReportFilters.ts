import { useMemo } from 'react';
import { useSearchParams } from 'react-router';
import type { ReportFilterValues } from '../../shared/reports/filters';
import type { ReportDeclaration } from '../../shared/reports/types';
import { useApiQuery } from '../../web/providers/queries';
import { readReportUrl } from '../reports/reportUrl';

/** The filters a report screen was built with (its URL), for a special part that loads its own data. */
export function useBuiltFilters(report: ReportDeclaration): ReportFilterValues | undefined {
  const [search] = useSearchParams();
  const key = search.toString();
  return useMemo(() => {
    const state = readReportUrl(report, new URLSearchParams(key));
    return state.built && !state.invalid ? state.filters : undefined;
  }, [report, key]);
}

/** Reads `load(filters)` for the built filters (under the query key `[...key, filters]`); undefined while reading or without filters. */
export function useFilteredLoad<T>(
  key: readonly unknown[],
  filters: ReportFilterValues | undefined,
  load: (filters: ReportFilterValues, signal: AbortSignal) => Promise<T>,
): T | undefined {
  return useApiQuery([...key, filters ?? null], (signal) => load(filters!, signal), { enabled: Boolean(filters) }).data;
}
