import { useEffect, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import type { ReportFilterValues } from '../../shared/reports/filters';
import type { ReportDeclaration } from '../../shared/reports/types';
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

/** Loads `load(filters)` whenever the built filters change; undefined while loading or without filters. */
export function useFilteredLoad<T>(
  filters: ReportFilterValues | undefined,
  load: (filters: ReportFilterValues, signal: AbortSignal) => Promise<T>,
): T | undefined {
  const [data, setData] = useState<T>();
  const key = JSON.stringify(filters ?? null);
  useEffect(() => {
    setData(undefined);
    if (!filters) return;
    const controller = new AbortController();
    load(filters, controller.signal).then(
      (d) => !controller.signal.aborted && setData(d),
      () => undefined,
    );
    return () => controller.abort();
  }, [key]);
  return data;
}
