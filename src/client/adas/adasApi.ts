import { ADAS_API, INCIDENTS_DETAILING, type AdasFiltersBody, type AdasIncidentRow, type IncidentReview } from '../../shared/reports/adas';
import type { ReportFilterValues } from '../../shared/reports/filters';
import { getJson, postJson, request } from '../../web/providers/httpClient';

/** A report's checked filters (the URL's) as the field-app calls' body. */
export function filtersBody(filters: ReportFilterValues): AdasFiltersBody {
  const ids = (value: unknown) => (Array.isArray(value) ? (value as number[]) : undefined);
  return {
    from: filters.from as string | undefined,
    to: filters.to as string | undefined,
    vehicles: ids(filters.vehicle),
    routes: ids(filters.route),
    depots: ids(filters.depot),
    types: ids(filters.type),
    falseAlarms: filters.falseAlarms as AdasFiltersBody['falseAlarms'],
  };
}

/** The detailing's drill-down: single incidents of the filters (vehicle-incidents-detail-table). */
export const fetchIncidents = (body: AdasFiltersBody, signal?: AbortSignal) =>
  postJson<{ list: AdasIncidentRow[]; count: number }>(`${ADAS_API}/vehicle-incidents-detail-table`, body, { signal });

export const fetchIncident = (id: number, signal?: AbortSignal) => getJson<AdasIncidentRow>(`${ADAS_API}/incidents/${id}`, { signal });

export const saveReview = async (id: number, review: IncidentReview | null, comment: string) =>
  (await request<AdasIncidentRow>(`${ADAS_API}/incidents/${id}/review`, { method: 'PUT', body: { review, comment } })).body;

/** The detailing report's path: its rights govern the drill-down and the review. */
export const DETAILING_PATH = INCIDENTS_DETAILING.path;
