/**
 * Layer visibility of the field app's ticket-control map modes (field-app spec 4), kept on the phone per mode:
 * in both control modes control regions on and territorial departments off; department control shows the
 * controllers, current region the order's routes.
 */
export type BcMapMode = 'departmentControl' | 'currentRegion';
export type BcLayer = 'regions' | 'departments' | 'controllers' | 'routes';

export const MODE_LAYERS: Record<BcMapMode, readonly BcLayer[]> = {
  departmentControl: ['regions', 'departments', 'controllers'],
  currentRegion: ['regions', 'departments', 'routes'],
};

const DEFAULTS: Record<BcMapMode, Record<BcLayer, boolean>> = {
  departmentControl: { regions: true, departments: false, controllers: true, routes: false },
  currentRegion: { regions: true, departments: false, controllers: false, routes: true },
};

const key = (mode: BcMapMode) => `field.mapLayers.${mode}`;

export function readLayers(mode: BcMapMode, storage: Pick<Storage, 'getItem'> = localStorage): Record<BcLayer, boolean> {
  try {
    const stored = JSON.parse(storage.getItem(key(mode)) ?? '{}') as Partial<Record<BcLayer, unknown>>;
    const layers = { ...DEFAULTS[mode] };
    for (const layer of MODE_LAYERS[mode]) if (typeof stored[layer] === 'boolean') layers[layer] = stored[layer] as boolean;
    return layers;
  } catch {
    return { ...DEFAULTS[mode] };
  }
}

export function saveLayers(mode: BcMapMode, layers: Record<BcLayer, boolean>, storage: Pick<Storage, 'setItem'> = localStorage): void {
  storage.setItem(key(mode), JSON.stringify(layers));
}
