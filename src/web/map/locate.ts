import { VEHICLE_LOCATE_ZOOM } from '../../shared/map';
import { mapApi } from './mapApi';
import { select, type MapState } from './mapState';
import { showRoute } from './popup/showRoute';
import type { MapSearchItem } from './searchResults';
import { loadBranchAgency } from './useBranchAgency';
import { parseWktPoint } from './wkt';

export const ENTERPRISE_LOCATE_ZOOM = 14;

/** Moves the map, then (when it has settled, so the popup pans into a still view) does `then`. */
function moveThen(state: MapState, at: [number, number], zoom: number, then: () => void): void {
  const map = state.mapInstance.get();
  if (!map) return then();
  map.once('moveend', then);
  map.setView(at, zoom);
}

/** Centres on a vehicle at zoom 16 and opens its popup (false when its position is unknown). */
export async function locateVehicle(state: MapState, id: number): Promise<boolean> {
  const vehicle = await mapApi.online(id);
  const at = parseWktPoint(vehicle.center);
  if (!at) return false;
  moveThen(state, at, VEHICLE_LOCATE_ZOOM, () => select(state, { kind: 'vehicle', id, at }));
  return true;
}

/** Centres on a stop at the vehicles' zoom and opens its card (its arrivals, with the live timetable). */
export async function locateStop(state: MapState, id: number): Promise<void> {
  const stop = await mapApi.stop(id);
  const at: [number, number] = [stop.lat, stop.lon];
  moveThen(state, at, VEHICLE_LOCATE_ZOOM, () => select(state, { kind: 'stop', id, at, name: stop.name }));
}

async function locateEnterprise(state: MapState, item: MapSearchItem): Promise<boolean> {
  const agency = (await loadBranchAgency().catch(() => null))?.agencies.find((a) => a.id === item.id);
  const lat = item.lat ?? agency?.lat ?? null;
  const lon = item.lon ?? agency?.lon ?? null;
  if (lat === null || lon === null) return false;
  moveThen(state, [lat, lon], Math.max(ENTERPRISE_LOCATE_ZOOM, state.mapInstance.get()?.getZoom() ?? 0), () => {
    if (agency) select(state, { kind: 'agency', id: agency.id, at: [lat, lon], depot: agency });
  });
  return true;
}

/** What choosing a search result does: a vehicle is located, a route drawn and fitted, an enterprise centred. */
export async function goToSearchItem(state: MapState, item: MapSearchItem): Promise<boolean> {
  if (item.kind === 'vehicle') return locateVehicle(state, item.id);
  if (item.kind === 'route') {
    await showRoute(state, item.id);
    return true;
  }
  return locateEnterprise(state, item);
}
