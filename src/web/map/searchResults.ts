import { SUGGESTIONS_MAX, SUGGESTION_TEXT_MAX } from '../../shared/constants';
import type { MapFilters } from '../../shared/map';
import { normalizeSearch as normalizeText } from '../components/filterOptions';
import { parseWktPoint } from './wkt';

/**
 * Entity search of the map (field-app spec 2.3): vehicles, routes and enterprises. The answer of
 * GET /api/v1/map/search is read leniently (a list of typed items, or lists per kind) into one shape;
 * without that call the same search runs over the filter data.
 */
export type SearchKind = 'vehicle' | 'route' | 'enterprise';

export interface MapSearchItem {
  kind: SearchKind;
  id: number;
  title: string;
  subtitle?: string;
  lat?: number;
  lon?: number;
}

type Raw = Record<string, unknown>;

const str = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim() ? value : typeof value === 'number' ? String(value) : undefined;
const num = (value: unknown): number | undefined => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);

const KINDS: Record<string, SearchKind> = {
  vehicle: 'vehicle',
  vehicles: 'vehicle',
  route: 'route',
  routes: 'route',
  enterprise: 'enterprise',
  enterprises: 'enterprise',
  agency: 'enterprise',
  agencies: 'enterprise',
  depots: 'enterprise',
};

function position(raw: Raw): { lat?: number; lon?: number } {
  const lat = num(raw.lat);
  const lon = num(raw.lon) ?? num(raw.lng);
  if (lat !== undefined && lon !== undefined) return { lat, lon };
  if (Array.isArray(raw.center) && typeof raw.center[0] === 'number' && typeof raw.center[1] === 'number')
    return { lat: raw.center[0], lon: raw.center[1] };
  const point = parseWktPoint(str(raw.center) ?? str(raw.geo));
  return point ? { lat: point[0], lon: point[1] } : {};
}

function titleOf(kind: SearchKind, raw: Raw): { title: string; subtitle?: string } {
  if (kind === 'vehicle') {
    const title = [str(raw.depotNumber), str(raw.gosNomer)].filter(Boolean).join(' · ') || str(raw.title) || str(raw.name) || '';
    return { title, subtitle: str(raw.model) ?? str(raw.subtitle) };
  }
  if (kind === 'route') {
    return {
      title: str(raw.route_short_name) ?? str(raw.number) ?? str(raw.name) ?? str(raw.title) ?? '',
      subtitle: str(raw.route_long_name) ?? str(raw.subtitle),
    };
  }
  return { title: str(raw.title) ?? str(raw.name) ?? '', subtitle: str(raw.address) ?? str(raw.subtitle) };
}

function item(kind: SearchKind | undefined, raw: unknown): MapSearchItem | null {
  if (!raw || typeof raw !== 'object') return null;
  const r = raw as Raw;
  const k = kind ?? KINDS[str(r.type) ?? str(r.kind) ?? ''];
  const id = num(r.id) ?? num(r.route_id) ?? num(r.agency_id);
  if (!k || id === undefined) return null;
  const { title, subtitle } = titleOf(k, r);
  return { kind: k, id, title: title.slice(0, SUGGESTION_TEXT_MAX), subtitle: subtitle?.slice(0, SUGGESTION_TEXT_MAX), ...position(r) };
}

export function normalizeSearch(body: unknown): MapSearchItem[] {
  const out: (MapSearchItem | null)[] = [];
  const list = Array.isArray(body) ? body : (body as { list?: unknown } | null)?.list;
  if (Array.isArray(list)) out.push(...list.map((raw) => item(undefined, raw)));
  else if (body && typeof body === 'object') {
    for (const [key, value] of Object.entries(body)) {
      if (KINDS[key] && Array.isArray(value)) out.push(...value.map((raw) => item(KINDS[key], raw)));
    }
  }
  return out.filter((x): x is MapSearchItem => x !== null && x.title !== '').slice(0, SUGGESTIONS_MAX);
}

/** The same search over the filter data (when the search call is not there). */
export function searchFilters(filters: MapFilters, query: string): MapSearchItem[] {
  const q = normalizeText(query);
  if (!q) return [];
  const hit = (...texts: (string | number | null | undefined)[]) =>
    texts.some((t) => t !== null && t !== undefined && normalizeText(String(t)).includes(q));
  const vehicles = filters.vehicles.filter((v) => hit(v.depotNumber, v.gosNomer)).map((v) => item('vehicle', v));
  const routes = filters.routes.filter((r) => hit(r.name)).map((r) => item('route', { id: r.id, name: r.name }));
  const enterprises = filters.depots.filter((d) => hit(d.name)).map((d) => item('enterprise', d));
  return [...routes, ...vehicles, ...enterprises].filter((x): x is MapSearchItem => x !== null).slice(0, SUGGESTIONS_MAX);
}
