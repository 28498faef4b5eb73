import { useEffect, useMemo } from 'react';
import L from 'leaflet';
import { useMap } from 'react-leaflet';
import { useLatestVehicles } from '../../web/map/mapState';
import { NEAR_USER_METRES, nearVehicles } from './nearVehicles';
import type { UserPosition } from './useUserPosition';

/**
 * Render-less: the user's position (a blue point with its accuracy) and the 2,000 m circle (the vehicle layer
 * rings the vehicles within it, `nearUser`). The map container carries data-near-count (vehicles near the
 * user) and data-user-position.
 */
export function UserPositionLayer({ position }: { position: UserPosition | null }) {
  const map = useMap();
  const vehicles = useLatestVehicles();
  const near = useMemo(() => nearVehicles(vehicles.values(), position?.at ?? null).length, [vehicles, position]);

  // three shapes in SVG, moved with the map as they are, where on the map's canvas they would make that canvas
  // exist at zoom 12 (no stops there) only to be redrawn at the end of every drag
  const renderer = useMemo(() => L.svg({ padding: 0.3 }), []);
  useEffect(
    () => () => {
      renderer.remove();
    },
    [renderer],
  );

  useEffect(() => {
    if (!position) return undefined;
    const group = L.layerGroup([
      L.circle(position.at, {
        renderer,
        radius: NEAR_USER_METRES,
        color: '#1976d2',
        weight: 1,
        dashArray: '6 6',
        fill: false,
        interactive: false,
      }),
      L.circle(position.at, {
        renderer,
        radius: Math.min(position.accuracy, 500),
        color: '#1976d2',
        weight: 0,
        fillOpacity: 0.12,
        interactive: false,
      }),
      L.circleMarker(position.at, {
        renderer,
        radius: 7,
        color: '#ffffff',
        weight: 2,
        fillColor: '#1976d2',
        fillOpacity: 1,
        interactive: false,
        className: 'field-user-position',
      }),
    ]).addTo(map);
    map.getContainer().dataset.userPosition = position.at.join(',');
    return () => {
      group.remove();
      delete map.getContainer().dataset.userPosition;
    };
  }, [map, position, renderer]);

  useEffect(() => {
    map.getContainer().dataset.nearCount = String(near);
  }, [map, near]);

  return null;
}
