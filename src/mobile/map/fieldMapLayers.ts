/**
 * Layer visibility of the field app's map (field-app spec 4), kept on the phone per mode (map, department
 * control, current region). Defaults: stops on, the other layers off; the agencies layer exists in the default
 * mode only; in the control modes control regions on and territorial departments off; department control turns
 * stops off, current region turns stops and routes on. Vehicles are the map itself, always drawn.
 */
export type FieldMapMode = 'map' | 'departmentControl' | 'currentRegion';
export type FieldLayer = 'stops' | 'routes' | 'agencies' | 'branches' | 'departments' | 'regions' | 'controllers';
export type FieldLayers = Record<FieldLayer, boolean>;

export const FIELD_MAP_MODES: readonly FieldMapMode[] = ['map', 'departmentControl', 'currentRegion'];

/** The layers each mode offers, in the order of the layers popup. */
export const MODE_LAYERS: Record<FieldMapMode, readonly FieldLayer[]> = {
  map: ['stops', 'routes', 'agencies', 'branches', 'departments', 'regions'],
  departmentControl: ['regions', 'controllers', 'departments', 'branches', 'stops', 'routes'],
  currentRegion: ['regions', 'routes', 'stops', 'departments', 'branches'],
};

const OFF: FieldLayers = {
  stops: false,
  routes: false,
  agencies: false,
  branches: false,
  departments: false,
  regions: false,
  controllers: false,
};

/**
 * Department control shows the controllers' positions at once: that is what the mode is for (the spec names no
 * default for them; "the other layers off" is read as the map's other layers).
 */
export const DEFAULT_LAYERS: Record<FieldMapMode, FieldLayers> = {
  map: { ...OFF, stops: true },
  departmentControl: { ...OFF, regions: true, controllers: true },
  currentRegion: { ...OFF, regions: true, stops: true, routes: true },
};

export const layersKey = (mode: FieldMapMode) => `field.mapLayers.${mode}`;

/** The mode's saved layers over its defaults; a layer the mode does not offer is always off. */
export function readLayers(mode: FieldMapMode, storage: Pick<Storage, 'getItem'> = localStorage): FieldLayers {
  const layers = { ...DEFAULT_LAYERS[mode] };
  let stored: Partial<Record<FieldLayer, unknown>> = {};
  try {
    const parsed = JSON.parse(storage.getItem(layersKey(mode)) ?? '{}') as unknown;
    if (parsed && typeof parsed === 'object') stored = parsed as Partial<Record<FieldLayer, unknown>>;
  } catch {
    // an unreadable entry counts as none
  }
  for (const layer of MODE_LAYERS[mode]) if (typeof stored[layer] === 'boolean') layers[layer] = stored[layer] as boolean;
  for (const layer of Object.keys(layers) as FieldLayer[]) if (!MODE_LAYERS[mode].includes(layer)) layers[layer] = false;
  return layers;
}

/** Saves one layer's visibility for the mode only. */
export function saveLayer(
  mode: FieldMapMode,
  layer: FieldLayer,
  on: boolean,
  storage: Pick<Storage, 'getItem' | 'setItem'> = localStorage,
): FieldLayers {
  const next = { ...readLayers(mode, storage), [layer]: on && MODE_LAYERS[mode].includes(layer) };
  try {
    storage.setItem(layersKey(mode), JSON.stringify(Object.fromEntries(MODE_LAYERS[mode].map((l) => [l, next[l]]))));
  } catch {
    // storage full or refused (private mode): the choice lasts this visit only
  }
  return next;
}
