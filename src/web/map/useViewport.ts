import { useEffect, useState } from 'react';
import type L from 'leaflet';
import type { Bbox } from './mapApi';

export interface Viewport {
  /** [south, west, north, east], padded around the view and clamped to the world. */
  bbox: Bbox;
  zoom: number;
}

/** Moves closer together than this are one change (continuous panning fires moveend on every frame). */
export const VIEWPORT_SETTLE_MS = 120;

const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));

export function viewportOf(map: L.Map, padding = 0): Viewport {
  return viewportOfBounds(map.getBounds(), map.getZoom(), padding);
}

/** The region of `bounds` widened by `padding` (of its size, each side) and clamped to the world. */
export function viewportOfBounds(view: L.LatLngBounds, zoom: number, padding = 0): Viewport {
  const bounds = padding ? view.pad(padding) : view;
  return {
    bbox: [
      clamp(bounds.getSouth(), -85, 85),
      clamp(bounds.getWest(), -180, 180),
      clamp(bounds.getNorth(), -85, 85),
      clamp(bounds.getEast(), -180, 180),
    ],
    zoom,
  };
}

/** The map's region and zoom once a move has settled (a zoom change at once). */
export function useViewport(map: L.Map, padding = 0): Viewport {
  const [viewport, setViewport] = useState(() => viewportOf(map, padding));
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const update = () => {
      clearTimeout(timer);
      timer = undefined;
      setViewport(viewportOf(map, padding));
    };
    const onMoveEnd = () => {
      clearTimeout(timer);
      timer = setTimeout(update, VIEWPORT_SETTLE_MS);
    };
    update();
    map.on('moveend', onMoveEnd);
    map.on('zoomend', update);
    return () => {
      clearTimeout(timer);
      map.off('moveend', onMoveEnd);
      map.off('zoomend', update);
    };
  }, [map, padding]);
  return viewport;
}
