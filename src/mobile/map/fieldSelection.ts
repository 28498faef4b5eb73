import { createStore, useStoreValue } from '../../web/stores/createStore';
import { select } from '../../web/map/mapState';

/**
 * The field map's one details popup shows what the console map's selection holds (vehicle, stop, route,
 * agency, branch, department) or a control region, which only the field map has. Choosing one clears the other.
 */
export const regionSelection = createStore<number | null>(null);
export const useRegionSelection = () => useStoreValue(regionSelection);

export function selectRegion(id: number | null): void {
  select(null);
  regionSelection.set(id);
}

export function clearFieldSelection(): void {
  select(null);
  regionSelection.set(null);
}
