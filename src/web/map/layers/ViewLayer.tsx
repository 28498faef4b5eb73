import { useEffect } from 'react';
import type L from 'leaflet';
import { useMap } from 'react-leaflet';
import type { MapPosition } from '../../../shared/api';
import { COORDINATE_DECIMALS } from '../../../shared/constants';
import { VIEWPORT_SETTLE_MS } from '../useViewport';
import type { LatLon } from '../wkt';
import { useLatest } from './useLatest';

const round = (value: number) => Number(value.toFixed(COORDINATE_DECIMALS));

/** The map's position as positions are kept (5 decimals). */
export function positionOf(map: L.Map): MapPosition {
  const centre = map.getCenter();
  return { lat: round(centre.lat), lon: round(centre.lng), zoom: map.getZoom() };
}

export interface ViewLayerProps {
  /** Where the map should stand: a change from outside ('return to saved') moves it. */
  view?: MapPosition;
  /** The map's position once a move has settled. */
  onViewChange?: (view: MapPosition) => void;
  /** The coordinates under the cursor (at most once a frame), null when it leaves the map. */
  onCursor?: (at: LatLon | null) => void;
}

/** Render-less: the map's position and cursor to the outside and back. The container carries data-zoom. */
export function ViewLayer({ view, onViewChange, onCursor }: ViewLayerProps) {
  const map = useMap();
  const handlers = useLatest({ onViewChange, onCursor });

  useEffect(() => {
    const container = map.getContainer();
    let settle: ReturnType<typeof setTimeout> | undefined;
    const onMove = () => {
      container.dataset.zoom = String(map.getZoom());
      clearTimeout(settle);
      settle = setTimeout(() => handlers.current.onViewChange?.(positionOf(map)), VIEWPORT_SETTLE_MS);
    };
    let frame = 0;
    const onMouseMove = (event: L.LeafletMouseEvent) => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(() => handlers.current.onCursor?.([event.latlng.lat, event.latlng.lng]));
    };
    const onMouseOut = () => {
      cancelAnimationFrame(frame);
      handlers.current.onCursor?.(null);
    };
    container.dataset.zoom = String(map.getZoom());
    map.on('moveend', onMove);
    map.on('mousemove', onMouseMove);
    map.on('mouseout', onMouseOut);
    return () => {
      clearTimeout(settle);
      cancelAnimationFrame(frame);
      map.off('moveend', onMove);
      map.off('mousemove', onMouseMove);
      map.off('mouseout', onMouseOut);
    };
  }, [map, handlers]);

  const { lat, lon, zoom } = view ?? {};
  useEffect(() => {
    if (lat === undefined || lon === undefined || zoom === undefined) return;
    const now = positionOf(map);
    if (now.lat !== lat || now.lon !== lon || now.zoom !== zoom) map.setView([lat, lon], zoom);
  }, [map, lat, lon, zoom]);

  return null;
}
