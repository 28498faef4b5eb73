import { DEFAULT_MAP } from '../../../shared/constants';

/** Zoom limits of every map: a country at the least, a house entrance at the most (where the tiles end). */
export const MAP_ZOOM = { min: 3, max: 19 } as const;

export interface BaseViewOptions {
  /** Where the map opens, [lat, lon]; the spec's default centre (section 9) otherwise. */
  center?: readonly [number, number];
  /** The zoom it opens at; the spec's default (11) otherwise. */
  zoom?: number;
  /** A picture only: no dragging, zooming, controls or attribution (a form's preview). */
  still?: boolean;
  /** A double click zooms in (off for maps where clicks place or draw something). */
  doubleClickZoom?: boolean;
  /** Other zoom limits than MAP_ZOOM (the field app's small map: 2–18, field-app spec 9). */
  zoomLimits?: { min: number; max: number };
}

/** The options of the Leaflet map a BaseMap creates (a pure function: tested without a browser). */
export function baseMapOptions({ center, zoom, still = false, doubleClickZoom = true, zoomLimits = MAP_ZOOM }: BaseViewOptions) {
  const interactive = !still;
  return {
    center: [center?.[0] ?? DEFAULT_MAP.lat, center?.[1] ?? DEFAULT_MAP.lon] as [number, number],
    zoom: zoom ?? DEFAULT_MAP.zoom,
    minZoom: zoomLimits.min,
    maxZoom: zoomLimits.max,
    worldCopyJump: false,
    dragging: interactive,
    zoomControl: interactive,
    scrollWheelZoom: interactive,
    doubleClickZoom: interactive && doubleClickZoom,
    touchZoom: interactive,
    boxZoom: interactive,
    keyboard: interactive,
    attributionControl: interactive,
  };
}
