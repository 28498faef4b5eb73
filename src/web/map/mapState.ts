import type L from 'leaflet';
import type { IncidentEvent, MapCluster, MapRoute } from '../../shared/map';
import { createStore, useStoreValue } from '../stores/createStore';
import { EMPTY_SELECTION, type MapFilterSelection } from './filter/mapFilter';
import type { Depot } from './layers/layerContent';

/**
 * The map screen's shared state outside React (the toolbar and the layers inside the map both read it):
 * the Leaflet map, the filter, routes picked from search or a popup, the one details popup, the cursor.
 */
export const mapInstance = createStore<L.Map | null>(null);
export const useMapInstance = () => useStoreValue(mapInstance);

export const filterSelection = createStore<MapFilterSelection>(EMPTY_SELECTION);
export const useFilterSelection = () => useStoreValue(filterSelection);

/** Routes drawn besides the filter's: picked from search or a stop's popup. */
export const pickedRoutes = createStore<readonly number[]>([]);
export const usePickedRoutes = () => useStoreValue(pickedRoutes);

export function pickRoute(id: number): void {
  pickedRoutes.set((ids) => (ids.includes(id) ? ids : [...ids, id]));
}

export type { Depot };

/** What the details popup shows (one at a time; closing clears it). */
export type MapSelection =
  | { kind: 'vehicle'; id: number; at: [number, number]; item?: MapCluster }
  | { kind: 'stop'; id: number; at: [number, number]; name: string }
  | { kind: 'route'; id: number; at: [number, number]; route: MapRoute }
  | { kind: 'agency' | 'branch' | 'department'; id: number; at: [number, number]; depot: Depot }
  | { kind: 'incident'; id: number; at: [number, number]; incident: IncidentEvent };

export const selection = createStore<MapSelection | null>(null);
export const useSelection = () => useStoreValue(selection);
export const select = (next: MapSelection | null): void => selection.set(next);

export const cursor = createStore<[number, number] | null>(null);
export const useCursor = () => useStoreValue(cursor);

/** The latest picture of the geo stream, for the popup of a moving vehicle. */
export const latestVehicles = createStore<ReadonlyMap<string, MapCluster>>(new Map());

/** The geo stream's state, for the message over the map. */
export const streamState = createStore<{ status: string; error: string }>({ status: 'stopped', error: '' });
export const useStreamState = () => useStoreValue(streamState);

/** Layers whose last load failed (a note over the map says so). */
export const layerErrors = createStore<Readonly<Record<string, boolean>>>({});
export const useLayerErrors = () => useStoreValue(layerErrors);

export const INCIDENT_PERIOD_DEFAULT_MS = 24 * 3600_000;
export const INCIDENT_PERIOD_MAX_MS = 7 * 24 * 3600_000;
/** The incident layer's period (epoch ms): the last 24 hours unless chosen, at most 7 days. */
export const incidentPeriod = createStore<{ from: number; to: number }>({ from: Date.now() - INCIDENT_PERIOD_DEFAULT_MS, to: Date.now() });
export const useIncidentPeriod = () => useStoreValue(incidentPeriod);
