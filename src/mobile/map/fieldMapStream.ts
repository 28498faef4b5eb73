import L from 'leaflet';
import type { CurrentUser } from '../../shared/api';
import { serializeGeoSubscription } from '../../shared/map';
import { LIVE_VEHICLES_PADDING } from '../../web/map/live/useLiveVehicles';
import { openEarlyGeoStream } from '../../web/map/useGeoStream';
import { viewportOfBounds } from '../../web/map/useViewport';
import { FIELD_MAP_ZOOM } from './fieldMapConstants';

/** Where the field map opens: the user's saved map centre, else the city's. */
export function fieldMapStart(user: CurrentUser | null): [number, number] {
  return [user?.mapSettings?.lat ?? 59.93, user?.mapSettings?.lon ?? 30.31];
}

/**
 * Opens the live stream of the map the user is about to see, with the login's answer: on 3G the stream's
 * round trip then overlaps the app's start instead of following it (field-app spec 9: vehicles within 3 s of
 * login). The region is the phone's screen around the start centre at the start zoom, plus the live layer's
 * margin; the map takes the stream over and moves it to its exact region.
 */
export function openFieldMapStream(user: CurrentUser): void {
  const zoom = FIELD_MAP_ZOOM.start;
  const crs = L.CRS.EPSG3857;
  const centre = crs.latLngToPoint(L.latLng(fieldMapStart(user)), zoom);
  const half = L.point(window.innerWidth / 2, window.innerHeight / 2);
  const view = L.latLngBounds(crs.pointToLatLng(centre.subtract(half), zoom), crs.pointToLatLng(centre.add(half), zoom));
  const { bbox } = viewportOfBounds(view, zoom, LIVE_VEHICLES_PADDING);
  openEarlyGeoStream(serializeGeoSubscription({ bounds: bbox, zoom, vehicles: [] }));
}
