import { useEffect, useState } from 'react';
import L from 'leaflet';
import { useMap } from 'react-leaflet';
import { STOPS_MINIMISED_MAX_ZOOM } from '../../shared/map';
import { isAbortError } from '../providers/httpClient';
import { select } from './mapState';
import { loadRoutes, type DrawnRoute } from './routeCache';
import { useViewport } from './useViewport';

/**
 * Render-less: the chosen routes from their trajectory lines (weight 3, the route's colour) with their
 * stops; at zoom 12 or lower the stops are minimised to the first and last ones (spec section 2). The map
 * container carries data-route-count and data-route-stop-count.
 */
export function MapRoutesLayer({ ids }: { ids: readonly number[] }) {
  const map = useMap();
  const [routes, setRoutes] = useState<DrawnRoute[]>([]);
  const minimised = useViewport(map).zoom <= STOPS_MINIMISED_MAX_ZOOM;
  const key = ids.join(',');

  useEffect(() => {
    const controller = new AbortController();
    loadRoutes(key ? key.split(',').map(Number) : [], { signal: controller.signal, quiet: true })
      .then(setRoutes, (error: unknown) => !isAbortError(error) && setRoutes([]));
    return () => controller.abort();
  }, [key]);

  useEffect(() => {
    const group = L.layerGroup();
    let stopCount = 0;
    for (const drawn of routes) {
      for (const line of drawn.lines) {
        L.polyline(line, { color: drawn.colour, weight: 3, opacity: 0.85, className: 'map-route' })
          .on('click', (e) => select({ kind: 'route', id: drawn.route.route_id, at: [e.latlng.lat, e.latlng.lng], route: drawn.route }))
          .addTo(group);
      }
    }
    for (const drawn of routes) {
      for (const stop of drawn.stops) {
        if (minimised && !stop.terminal) continue;
        stopCount++;
        L.circleMarker(stop.at, { radius: stop.terminal ? 6 : 4, color: drawn.colour, weight: 2, fillColor: '#ffffff', fillOpacity: 1 })
          .on('click', () => select({ kind: 'stop', id: stop.id, at: stop.at, name: stop.name }))
          .addTo(group);
      }
    }
    group.addTo(map);
    const container = map.getContainer();
    container.dataset.routeCount = String(routes.length);
    container.dataset.routeStopCount = String(stopCount);
    return () => {
      group.remove();
      container.dataset.routeCount = '0';
      container.dataset.routeStopCount = '0';
    };
  }, [map, routes, minimised]);

  return null;
}
