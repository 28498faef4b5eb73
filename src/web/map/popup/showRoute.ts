import { VEHICLE_LOCATE_ZOOM } from '../../../shared/map';
import { pickRoute, type MapState } from '../mapState';
import { loadRoutes, routeBounds } from '../routeCache';

/** Draws a route (besides the filter's) and fits the map to it. */
export async function showRoute(state: MapState, id: number): Promise<void> {
  pickRoute(state, id);
  const [drawn] = await loadRoutes([id]);
  const bounds = drawn ? routeBounds(drawn) : null;
  if (bounds) state.mapInstance.get()?.fitBounds(bounds, { padding: [40, 40], maxZoom: VEHICLE_LOCATE_ZOOM });
}
