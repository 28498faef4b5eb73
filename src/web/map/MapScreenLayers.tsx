import { useCallback, useEffect, useMemo } from 'react';
import type L from 'leaflet';
import { useMap } from 'react-leaflet';
import type { MapPosition } from '../../shared/api';
import { STOPS_MINIMISED_MAX_ZOOM, type BranchAgency, type MapCluster } from '../../shared/map';
import { useApiQuery } from '../providers/queries';
import { getMapPositions, setCurrentPosition, useMapPositions } from '../stores/mapPositionStore';
import { DepotsLayer } from './layers/DepotsLayer';
import { IncidentsLayer } from './layers/IncidentsLayer';
import { positioned } from './layers/layerContent';
import { RoutesLayer } from './layers/RoutesLayer';
import { StopsLayer, type MapStop } from './layers/StopsLayer';
import { TrackLayer } from './layers/TrackLayer';
import { ViewLayer } from './layers/ViewLayer';
import { VehiclesLayer, zoomIntoGroup } from './layers/VehiclesLayer';
import { useLiveVehicles } from './live/useLiveVehicles';
import { mapApi } from './mapApi';
import { select, useIncidentPeriod, useMapState, type MapState } from './mapState';
import { useReplayState } from './replay/replayState';
import { loadRoutes, type DrawnRoute } from './routeCache';
import { useDebouncedLoad } from './useDebouncedLoad';
import { incidentColour, useIncidentTypes } from './useIncidentTypes';
import { useViewport } from './useViewport';
import { parseWktPoint } from './wkt';

/**
 * The map screen's wiring: each piece reads the screen's stores and the map API and hands the data and
 * the screen's handlers (the details popup, the layer error notes) to a layer of src/web/map/layers.
 */

/** A layer's failed load, for the note over the map; cleared when the layer goes. */
function useLayerError(layer: string, error: boolean): void {
  const { layerErrors } = useMapState();
  useEffect(() => layerErrors.set((e) => ({ ...e, [layer]: error })), [layerErrors, layer, error]);
  useEffect(() => () => layerErrors.set((e) => ({ ...e, [layer]: false })), [layerErrors, layer]);
}

const openVehicle = (state: MapState, item: MapCluster, map: L.Map) => {
  if (item.type === 'group') zoomIntoGroup(map, item);
  else select(state, { kind: 'vehicle', id: item.id, at: item.center, item });
};

/** The geo stream's vehicles (the filter's choice) on the vehicle canvas, in a colour mode's colours; the popup follows them. */
export function ScreenVehicles({
  vehicleIds,
  ringed,
  colourOf,
  colourMode,
}: {
  vehicleIds: readonly number[] | null;
  ringed?: (vehicle: MapCluster) => boolean;
  colourOf?: ((vehicle: MapCluster) => string | null) | null;
  colourMode?: string;
}) {
  const state = useMapState();
  const { latestVehicles, streamState } = state;
  const { picture, status, error } = useLiveVehicles(useMap(), vehicleIds);
  useEffect(() => latestVehicles.set(picture.snapshot), [latestVehicles, picture.snapshot]);
  useEffect(() => () => latestVehicles.set(new Map()), [latestVehicles]);
  useEffect(() => streamState.set({ status, error }), [streamState, status, error]);
  useEffect(() => () => streamState.set({ status: 'stopped', error: '' }), [streamState]);
  const onItemClick = useCallback((item: MapCluster, map: L.Map) => openVehicle(state, item, map), [state]);
  return (
    <VehiclesLayer
      items={picture.items}
      time={picture.time}
      onItemClick={onItemClick}
      ringed={ringed}
      colourOf={colourOf}
      colourMode={colourMode}
    />
  );
}

const NO_ROUTES: DrawnRoute[] = [];

/**
 * The routes of `ids` with their geometry (GET /api/v1/map/routes, each route read once: routeCache); the routes
 * drawn stay until the next choice's arrive, and none show when the read fails (a background load, quiet).
 */
export function useDrawnRoutes(ids: readonly number[]): DrawnRoute[] {
  const key = ids.join(',');
  const read = (signal: AbortSignal) => loadRoutes(key ? key.split(',').map(Number) : [], { signal, quiet: true });
  // never disabled: a disabled query would keep the previous routes on screen; no ids answer none without a request
  const { data } = useApiQuery(['map', 'routes', key], read, { keepPrevious: true });
  return data ?? NO_ROUTES;
}

/** The filter's routes and those picked from the search or a popup. */
export function ScreenRoutes({ ids }: { ids: readonly number[] }) {
  const state = useMapState();
  const routes = useDrawnRoutes(ids);
  return (
    <RoutesLayer
      routes={routes}
      onRouteClick={(route, at) => select(state, { kind: 'route', id: route.route_id, at, route })}
      onStopClick={(stop) => select(state, { kind: 'stop', id: stop.id, at: stop.at, name: stop.name })}
    />
  );
}

/**
 * The stops in view (GET /api/v1/map/stops?bbox=) when zoomed in past the minimised zoom; at zoom 12 or
 * lower only the drawn routes' first and last stops show (the routes layer draws those).
 */
export function ScreenStops() {
  const state = useMapState();
  const { bbox, zoom } = useViewport(useMap(), 0.2);
  const key = zoom > STOPS_MINIMISED_MAX_ZOOM ? bbox.map((v) => v.toFixed(4)).join(',') : null;
  const { data, error } = useDebouncedLoad(key, (signal) => mapApi.stops(bbox, { signal, quiet: true }));
  useLayerError('stops', error);
  const stops = useMemo(
    () =>
      (data ?? []).flatMap((row): MapStop[] => {
        const at = typeof row.lat === 'number' && typeof row.lon === 'number' ? ([row.lat, row.lon] as const) : parseWktPoint(row.geo);
        return at ? [{ id: row.id, name: row.name ?? '', at: [at[0], at[1]] }] : [];
      }),
    [data],
  );
  return <StopsLayer stops={stops} onStopClick={(stop) => select(state, { kind: 'stop', ...stop })} />;
}

/** Enterprises and branches, or departments as points, each opening its details. */
export function ScreenDepots({ data, points }: { data: BranchAgency; points: boolean }) {
  const state = useMapState();
  return (
    <DepotsLayer data={data} points={points} onDepotClick={({ kind, depot, at }) => select(state, { kind, id: depot.id, at, depot })} />
  );
}

/** Driver-assistance incidents of the chosen period in view, coloured by incident type. */
export function ScreenIncidents() {
  const state = useMapState();
  const { bbox } = useViewport(useMap(), 0.2);
  const { from, to } = useIncidentPeriod();
  const types = useIncidentTypes(true);
  const key = `${from}-${to}-${bbox.map((v) => v.toFixed(4)).join(',')}`;
  const { data, error } = useDebouncedLoad(key, (signal) =>
    mapApi.incidents(new Date(from).toISOString(), new Date(to).toISOString(), bbox, { signal, quiet: true }),
  );
  useLayerError('incidents', error);
  const colourOf = useCallback((type: number) => incidentColour(types, type), [types]);
  const incidents = useMemo(() => positioned(data ?? []), [data]);
  if (!data) return null;
  return (
    <IncidentsLayer
      incidents={incidents}
      colourOf={colourOf}
      onIncidentClick={(incident) => select(state, { kind: 'incident', id: incident.id, at: [incident.lat, incident.lon], incident })}
    />
  );
}

/** The replayed track and the vehicle at the replay clock. */
export function ScreenTrack() {
  const { track, time } = useReplayState();
  return <TrackLayer track={track} time={time} />;
}

const followMap = (next: MapPosition) => {
  const { current } = getMapPositions();
  if (current.lat !== next.lat || current.lon !== next.lon || current.zoom !== next.zoom) setCurrentPosition(next);
};

/**
 * The current map position (spec section 4) follows the map, and a change of it from outside ('return to
 * saved') moves the map; the cursor's coordinates go to the corner display.
 */
export function ScreenView() {
  const { current } = useMapPositions();
  const { cursor } = useMapState();
  return <ViewLayer view={current} onViewChange={followMap} onCursor={cursor.set} />;
}
