import { useEffect } from 'react';
import L from 'leaflet';
import { useMap } from 'react-leaflet';
import { STOPS_MINIMISED_MAX_ZOOM, type MapRoute } from '../../../shared/map';
import type { DrawnRoute } from '../routeCache';
import { useViewport } from '../useViewport';
import type { LatLon } from '../wkt';
import { shownRouteStops, type RouteStop } from './layerContent';
import { useLatest } from './useLatest';

export interface RoutesLayerProps {
  routes: readonly DrawnRoute[];
  onRouteClick?: (route: MapRoute, at: LatLon) => void;
  onStopClick?: (stop: RouteStop) => void;
}

/**
 * Render-less: routes as their trajectory lines (weight 3, the route's colour) with their stops; at zoom 12
 * or lower only the first and last stops (spec section 2). The map container carries data-route-count and
 * data-route-stop-count.
 */
export function RoutesLayer({ routes, onRouteClick, onStopClick }: RoutesLayerProps) {
  const map = useMap();
  const handlers = useLatest({ onRouteClick, onStopClick });
  const minimised = useViewport(map).zoom <= STOPS_MINIMISED_MAX_ZOOM;

  useEffect(() => {
    const group = L.layerGroup();
    let stopCount = 0;
    for (const drawn of routes) {
      for (const line of drawn.lines) {
        L.polyline(line, { color: drawn.colour, weight: 3, opacity: 0.85, className: 'map-route' })
          .on('click', (e) => handlers.current.onRouteClick?.(drawn.route, [e.latlng.lat, e.latlng.lng]))
          .addTo(group);
      }
    }
    // stops over every line
    for (const drawn of routes) {
      for (const stop of shownRouteStops(drawn.stops, minimised)) {
        stopCount++;
        L.circleMarker(stop.at, { radius: stop.terminal ? 6 : 4, color: drawn.colour, weight: 2, fillColor: '#ffffff', fillOpacity: 1 })
          .on('click', () => handlers.current.onStopClick?.(stop))
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
  }, [map, routes, minimised, handlers]);

  return null;
}
