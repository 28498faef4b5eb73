import { DEFAULT_MAP_LAYERS } from '../../shared/constants';
import { createStore, useStoreValue } from '../../web/stores/createStore';

/**
 * The layers panel: routes, stops, vehicles, depots (enterprises and branches) and depot points
 * (departments) on by default (spec section 9), the driver-assistance incident layer off. The choice is
 * remembered in this browser.
 */
export const MAP_LAYERS = [...DEFAULT_MAP_LAYERS, 'incidents'] as const;
export type MapLayerId = (typeof MAP_LAYERS)[number];
export type LayerVisibility = Readonly<Record<MapLayerId, boolean>>;

export const LAYERS_STORAGE_KEY = 'map.layers';

export function defaultLayers(): LayerVisibility {
  const on = new Set<string>(DEFAULT_MAP_LAYERS);
  return Object.fromEntries(MAP_LAYERS.map((id) => [id, on.has(id)])) as Record<MapLayerId, boolean>;
}

/** The stored choice over the defaults; unknown or malformed entries are ignored. */
export function parseLayers(text: string | null): LayerVisibility {
  const layers = { ...defaultLayers() };
  try {
    const stored: unknown = text ? JSON.parse(text) : null;
    if (stored && typeof stored === 'object') {
      for (const id of MAP_LAYERS) {
        const value = (stored as Record<string, unknown>)[id];
        if (typeof value === 'boolean') layers[id] = value;
      }
    }
  } catch {
    // a broken entry: the defaults
  }
  return layers;
}

function read(): LayerVisibility {
  try {
    return parseLayers(localStorage.getItem(LAYERS_STORAGE_KEY));
  } catch {
    return defaultLayers();
  }
}

const layers = createStore<LayerVisibility>(read());

export function setLayer(id: MapLayerId, visible: boolean): void {
  layers.set((current) => ({ ...current, [id]: visible }));
  try {
    localStorage.setItem(LAYERS_STORAGE_KEY, JSON.stringify(layers.get()));
  } catch {
    // storage unavailable: the choice lasts for this page
  }
}

export const useLayers = (): LayerVisibility => useStoreValue(layers);

/**
 * The map flags of spec section 4: the driver-assistance layer flag (the incident layer shown) and the
 * route-availability flag for that layer (the incident reports' module is on and the user may read one of
 * its routes, so the layer is offered).
 */
export interface MapFlags {
  adasLayer: boolean;
  adasRouteAvailable: boolean;
}
