import type {
  BranchAgency,
  IncidentEvent,
  IncidentType,
  MapFilters,
  MapRoute,
  OnlineVehicle,
  StopDetails,
  TrackPoint,
} from '../../shared/map';
import { getJson, postJson, type RequestOptions } from '../providers/httpClient';
import { normalizeSearch, type MapSearchItem } from './searchResults';

/**
 * The map's REST calls (console spec section 7, the contract of src/shared/map.ts), through the one HTTP
 * client. Background loads of a layer pass `quiet` (no message stack, the layer shows its own error);
 * what the user asked for goes through the spec's error handling.
 */
export interface CallOptions {
  signal?: AbortSignal;
  /** No global error handling (messages, navigation): the caller shows the failure itself. */
  quiet?: boolean;
}

const opts = ({ signal, quiet }: CallOptions = {}): Omit<RequestOptions, 'method' | 'body'> => ({ signal, handleErrors: !quiet });

/** [south, west, north, east] rounded to 5 decimals. */
export type Bbox = [number, number, number, number];
const bboxParam = (bbox: Bbox) => bbox.map((v) => v.toFixed(5)).join(',');

function listOf<T>(body: unknown): T[] {
  if (Array.isArray(body)) return body as T[];
  const list =
    body && typeof body === 'object' ? ((body as { list?: unknown; items?: unknown }).list ?? (body as { items?: unknown }).items) : null;
  return Array.isArray(list) ? (list as T[]) : [];
}

export const mapApi = {
  filters: (o?: CallOptions) => getJson<MapFilters>('/api/v1/map/filters', opts(o)),
  routes: async (ids: readonly number[], o?: CallOptions) =>
    ids.length ? listOf<MapRoute>(await getJson<unknown>('/api/v1/map/routes', { ...opts(o), query: { q: ids.join(',') } })) : [],
  stops: async (bbox: Bbox, o?: CallOptions) =>
    listOf<Partial<StopDetails> & { id: number; geo?: string }>(
      await getJson<unknown>('/api/v1/map/stops', { ...opts(o), query: { bbox: bboxParam(bbox) } }),
    ),
  stop: (id: number, o?: CallOptions) => getJson<StopDetails>(`/api/v1/map/stop/${id}`, opts(o)),
  online: (id: number, o?: CallOptions) => getJson<OnlineVehicle>(`/api/v1/map/online/${id}`, opts(o)),
  branchAgency: (o?: CallOptions) => getJson<BranchAgency>('/api/v1/map/branchagency', opts(o)),
  incidentTypes: async (o?: CallOptions) => listOf<IncidentType>(await getJson<unknown>('/api/v1/map/incident-types', opts(o))),
  incidents: async (from: string, to: string, bbox: Bbox, o?: CallOptions) =>
    listOf<IncidentEvent>(await getJson<unknown>('/api/v1/map/incidents', { ...opts(o), query: { from, to, bbox: bboxParam(bbox) } })),
  search: async (q: string, o?: CallOptions): Promise<MapSearchItem[]> =>
    normalizeSearch(await getJson<unknown>('/api/v1/map/search', { ...opts(o), query: { q } })),
  track: async (vehicleId: number, from: string, to: string, o?: CallOptions): Promise<TrackPoint[]> => {
    const body = await postJson<{ points?: TrackPoint[] } | TrackPoint[]>('/api/v1/map/vehicles/period', { vehicleId, from, to }, opts(o));
    return Array.isArray(body) ? body : (body?.points ?? []);
  },
};
