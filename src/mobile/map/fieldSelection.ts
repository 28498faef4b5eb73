import { createStore, useStoreValue, type Store } from '../../web/stores/createStore';
import { select, type MapState } from '../../web/map/mapState';

/**
 * The field map's one details popup shows what the map state's selection holds (vehicle, stop, route,
 * agency, branch, department) or a control region, which only the field map has. Choosing one clears the other.
 * The field map screen creates its region selection once, beside its map state.
 */
export type RegionSelection = Store<number | null>;

export const createRegionSelection = (): RegionSelection => createStore<number | null>(null);
export const useRegionSelection = (region: RegionSelection) => useStoreValue(region);

export function selectRegion(state: MapState, region: RegionSelection, id: number | null): void {
  select(state, null);
  region.set(id);
}

export function clearFieldSelection(state: MapState, region: RegionSelection): void {
  select(state, null);
  region.set(null);
}
