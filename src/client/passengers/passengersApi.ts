import { SUMMARY_API, type PassengerSummary } from '../../shared/passengers/passengers';
import { filterQuery, type ReportFilterValues } from '../../shared/reports/filters';
import { getJson } from '../../web/providers/httpClient';

/** The analysis overview for the filters the report was built with. */
export const fetchSummary = (filters: ReportFilterValues, signal?: AbortSignal) =>
  getJson<PassengerSummary>(`${SUMMARY_API}?${new URLSearchParams(filterQuery(filters)).toString()}`, { signal });
