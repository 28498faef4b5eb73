import { VEHICLE_LOCATE_ZOOM } from '../../shared/map';
import { mapApi } from './mapApi';
import { mapInstance, select } from './mapState';
import { showRoute } from './popup/showRoute';
import type { MapSearchItem } from './searchResults';
import { loadBranchAgency } from './useBranchAgency';
import { parseWktPoint } from './wkt';

export const ENTERPRISE_LOCATE_ZOOM = 14;

/** Moves the map, then (when it has settled, so the popup pans into a still view) does `then`. */
function moveThen(at: [number, number], zoom: number, then: () => void): void {
  const map = mapInstance.get();
  if (!map) return then();
  map.once('moveend', then);
  map.setView(at, zoom);
}

/** Centres on a vehicle at zoom 16 and opens its popup (false when its position is unknown). */
export async function locateVehicle(id: number): Promise<boolean> {
  const vehicle = await mapApi.online(id);
  const at = parseWktPoint(vehicle.center);
  if (!at) return false;
  moveThen(at, VEHICLE_LOCATE_ZOOM, () => select({ kind: 'vehicle', id, at }));
  return true;
}

/** Centres on a stop at the vehicles' zoom and opens its card (its arrivals, with the live timetable). */
export async function locateStop(id: number): Promise<void> {
  const stop = await mapApi.stop(id);
  moveThen([stop.lat, stop.lon], VEHICLE_LOCATE_ZOOM, () => select({ kind: 'stop', id, at: [stop.lat, stop.lon], name: stop.name }));
}

async function locateEnterprise(item: MapSearchItem): Promise<boolean> {
  const agency = (await loadBranchAgency().catch(() => null))?.agencies.find((a) => a.id === item.id);
  const lat = item.lat ?? agency?.lat ?? null;
  const lon = item.lon ?? agency?.lon ?? null;
  if (lat === null || lon === null) return false;
  moveThen([lat, lon], Math.max(ENTERPRISE_LOCATE_ZOOM, mapInstance.get()?.getZoom() ?? 0), () => {
    if (agency) select({ kind: 'agency', id: agency.id, at: [lat, lon], depot: agency });
  });
  return true;
}

/** What choosing a search result does: a vehicle is located, a route drawn and fitted, an enterprise centred. */
export async function goToSearchItem(item: MapSearchItem): Promise<boolean> {
  if (item.kind === 'vehicle') return locateVehicle(item.id);
  if (item.kind === 'route') {
    await showRoute(item.id);
    return true;
  }
  return locateEnterprise(item);
}
