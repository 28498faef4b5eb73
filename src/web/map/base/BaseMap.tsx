import 'leaflet/dist/leaflet.css';
import './baseMap.css';
import './mapIcons';
import { useCallback, useEffect, useState, type ReactNode } from 'react';
import type L from 'leaflet';
import { MapContainer } from 'react-leaflet';
import { baseMapOptions, type BaseViewOptions } from './baseMapOptions';
import { loadGeoman } from './geoman';
import { lazyCanvas } from './lazyCanvas';
import { MapResize } from './MapResize';
import { MapTiles } from './MapTiles';

export const LEAFLET_PREFIX = '<a href="https://leafletjs.com">Leaflet</a>';

export interface BaseMapProps extends BaseViewOptions {
  /**
   * Vector layers drawn on one shared canvas (the live map's thousands of routes, stops and points) instead
   * of SVG, which editable shapes need.
   */
  canvas?: boolean;
  /** Load leaflet-geoman before the map is created (shape editors); `loading` shows meanwhile. */
  geoman?: boolean;
  loading?: ReactNode;
  /** data-testid of the map's container. */
  testId?: string;
  /** The Leaflet map once created, null when it goes (for screens that move the map from outside). */
  onMap?: (map: L.Map | null) => void;
  /** The map's layers: render-less components (src/web/map/layers) and react-leaflet ones. */
  children?: ReactNode;
}

/**
 * The one Leaflet map of the product (the map screen, the handbook pickers and editors, and the coming
 * field-app and report maps): the product's own tiles over a plain background, the spec's default view,
 * zoom limits, the attribution, the map following its container's size, optionally a shared canvas
 * renderer and leaflet-geoman. It fills its positioned parent. The container carries data-base-map.
 */
export function BaseMap({
  center,
  zoom,
  canvas = false,
  geoman = false,
  loading = null,
  still,
  doubleClickZoom,
  zoomLimits,
  testId,
  onMap,
  children,
}: BaseMapProps) {
  // the first view only: later moves belong to the map (and the layers), not to a re-render
  const [options] = useState(() => baseMapOptions({ center, zoom, still, doubleClickZoom, zoomLimits }));
  const [renderer] = useState(() => (canvas ? lazyCanvas() : undefined));
  const [ready, setReady] = useState(!geoman);

  useEffect(() => {
    if (!geoman) return;
    let live = true;
    void loadGeoman().then(() => live && setReady(true));
    return () => {
      live = false;
    };
  }, [geoman]);

  const ref = useCallback(
    (map: L.Map | null) => {
      if (map) {
        const container = map.getContainer();
        container.dataset.baseMap = '';
        if (testId) container.dataset.testid = testId;
        map.attributionControl?.setPrefix(LEAFLET_PREFIX);
      }
      onMap?.(map);
    },
    [testId, onMap],
  );

  if (!ready) return <>{loading}</>;
  return (
    <MapContainer ref={ref} {...options} renderer={renderer} style={{ position: 'absolute', inset: 0 }}>
      <MapTiles />
      <MapResize />
      {children}
    </MapContainer>
  );
}
