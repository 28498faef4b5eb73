import { useEffect } from 'react';
import type L from 'leaflet';
import { useMap } from 'react-leaflet';
import type { MapPosition } from '../../shared/api';
import { COORDINATE_DECIMALS } from '../../shared/constants';
import { getMapPositions, setCurrentPosition, useMapPositions } from '../stores/mapPositionStore';
import { cursor } from './mapState';
import { VIEWPORT_SETTLE_MS } from './useViewport';

const round = (value: number) => Number(value.toFixed(COORDINATE_DECIMALS));

/** The map's position as the store keeps it (5 decimals). */
export function positionOf(map: L.Map): MapPosition {
  const centre = map.getCenter();
  return { lat: round(centre.lat), lon: round(centre.lng), zoom: map.getZoom() };
}

/**
 * Render-less: the current map position (spec section 4) follows the map; a change of the current position
 * from outside ('set saved') moves the map; the cursor's coordinates are kept for the corner display.
 */
export function MapPositionSync() {
  const map = useMap();
  const { current } = useMapPositions();

  useEffect(() => {
    let settle: ReturnType<typeof setTimeout> | undefined;
    const follow = () => {
      const next = positionOf(map);
      const { current: before } = getMapPositions();
      if (before.lat !== next.lat || before.lon !== next.lon || before.zoom !== next.zoom) setCurrentPosition(next);
    };
    const onMove = () => {
      map.getContainer().dataset.zoom = String(map.getZoom());
      clearTimeout(settle);
      settle = setTimeout(follow, VIEWPORT_SETTLE_MS);
    };
    let frame = 0;
    const onMouseMove = (event: { latlng: { lat: number; lng: number } }) => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(() => cursor.set([event.latlng.lat, event.latlng.lng]));
    };
    const onMouseOut = () => {
      cancelAnimationFrame(frame);
      cursor.set(null);
    };
    map.on('moveend', onMove);
    map.getContainer().dataset.zoom = String(map.getZoom());
    map.on('mousemove', onMouseMove);
    map.on('mouseout', onMouseOut);
    return () => {
      clearTimeout(settle);
      cancelAnimationFrame(frame);
      map.off('moveend', onMove);
      map.off('mousemove', onMouseMove);
      map.off('mouseout', onMouseOut);
    };
  }, [map]);

  useEffect(() => {
    const centre = map.getCenter();
    if (round(centre.lat) !== current.lat || round(centre.lng) !== current.lon || map.getZoom() !== current.zoom) {
      map.setView([current.lat, current.lon], current.zoom);
    }
  }, [map, current]);

  return null;
}
