import { createContext, createElement, useContext, type ReactNode } from 'react';
import type L from 'leaflet';
import type { IncidentEvent, MapCluster, MapRoute } from '../../shared/map';
import { createStore, useStoreValue, type Store } from '../stores/createStore';
import { EMPTY_SELECTION, type MapFilterSelection } from './filter/mapFilter';
import type { Depot } from './layers/layerContent';

export type { Depot };

/** What the details popup shows (one at a time; closing it clears it). */
export type MapSelection =
  | { kind: 'vehicle'; id: number; at: [number, number]; item?: MapCluster }
  | { kind: 'stop'; id: number; at: [number, number]; name: string }
  | { kind: 'route'; id: number; at: [number, number]; route: MapRoute }
  | { kind: 'agency' | 'branch' | 'department'; id: number; at: [number, number]; depot: Depot }
  | { kind: 'incident'; id: number; at: [number, number]; incident: IncidentEvent };

export const INCIDENT_PERIOD_DEFAULT_MS = 24 * 3600_000;
export const INCIDENT_PERIOD_MAX_MS = 7 * 24 * 3600_000;

/**
 * One map screen's state, shared by the toolbar and panels around the map and the layers inside it (stores,
 * so that code outside React, such as locating a vehicle, reads and changes it too).
 */
export interface MapState {
  /** The Leaflet map, once it is there. */
  mapInstance: Store<L.Map | null>;
  filterSelection: Store<MapFilterSelection>;
  /** Routes drawn besides the filter's: picked from search or a stop's popup. */
  pickedRoutes: Store<readonly number[]>;
  /** The one details popup. */
  selection: Store<MapSelection | null>;
  cursor: Store<[number, number] | null>;
  /** The latest picture of the geo stream, for the popup of a moving vehicle. */
  latestVehicles: Store<ReadonlyMap<string, MapCluster>>;
  /** The geo stream's state, for the message over the map. */
  streamState: Store<{ status: string; error: string }>;
  /** Layers whose last load failed (a note over the map says so). */
  layerErrors: Store<Readonly<Record<string, boolean>>>;
  /** The incident layer's period (epoch ms): the last 24 hours unless chosen, at most 7 days. */
  incidentPeriod: Store<{ from: number; to: number }>;
}

/** A map screen creates its state once (`useState(() => createMapState())`) and provides it with MapStateProvider. */
export function createMapState(): MapState {
  const now = Date.now();
  return {
    mapInstance: createStore<L.Map | null>(null),
    filterSelection: createStore<MapFilterSelection>(EMPTY_SELECTION),
    pickedRoutes: createStore<readonly number[]>([]),
    selection: createStore<MapSelection | null>(null),
    cursor: createStore<[number, number] | null>(null),
    latestVehicles: createStore<ReadonlyMap<string, MapCluster>>(new Map()),
    streamState: createStore({ status: 'stopped', error: '' }),
    layerErrors: createStore<Readonly<Record<string, boolean>>>({}),
    incidentPeriod: createStore({ from: now - INCIDENT_PERIOD_DEFAULT_MS, to: now }),
  };
}

const MapStateContext = createContext<MapState | null>(null);

export function MapStateProvider({ state, children }: { state: MapState; children?: ReactNode }) {
  return createElement(MapStateContext.Provider, { value: state }, children);
}

/** The state of the map screen around the caller. */
export function useMapState(): MapState {
  const state = useContext(MapStateContext);
  if (!state) throw new Error('useMapState() outside a MapStateProvider');
  return state;
}

export const useMapInstance = () => useStoreValue(useMapState().mapInstance);
export const useFilterSelection = () => useStoreValue(useMapState().filterSelection);
export const usePickedRoutes = () => useStoreValue(useMapState().pickedRoutes);
export const useSelection = () => useStoreValue(useMapState().selection);
export const useCursor = () => useStoreValue(useMapState().cursor);
export const useLatestVehicles = () => useStoreValue(useMapState().latestVehicles);
export const useStreamState = () => useStoreValue(useMapState().streamState);
export const useLayerErrors = () => useStoreValue(useMapState().layerErrors);
export const useIncidentPeriod = () => useStoreValue(useMapState().incidentPeriod);

export function pickRoute(state: MapState, id: number): void {
  state.pickedRoutes.set((ids) => (ids.includes(id) ? ids : [...ids, id]));
}

export const select = (state: MapState, next: MapSelection | null): void => state.selection.set(next);
