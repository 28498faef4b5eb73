import type { MapPosition } from '../../shared/api';
import { DEFAULT_MAP } from '../../shared/constants';
import { createStore, useStoreValue } from './createStore';

/** Map position of spec section 4: a current and a saved one; 'set saved' copies saved to current. */
export interface MapPositions {
  current: MapPosition;
  saved: MapPosition;
}

const positions = createStore<MapPositions>({ current: { ...DEFAULT_MAP }, saved: { ...DEFAULT_MAP } });

/** Applies the position stored with the user (app start and login): both current and saved. */
export function applySavedPosition(saved: MapPosition): void {
  positions.set({ current: { ...saved }, saved: { ...saved } });
}

export function setCurrentPosition(current: MapPosition): void {
  positions.set((p) => ({ ...p, current }));
}

export function setSavedPosition(saved: MapPosition): void {
  positions.set((p) => ({ ...p, saved }));
}

/** 'Set saved': the map returns to the saved position. */
export function restoreSavedPosition(): void {
  positions.set((p) => ({ ...p, current: { ...p.saved } }));
}

export const getMapPositions = (): MapPositions => positions.get();

export function useMapPositions(): MapPositions {
  return useStoreValue(positions);
}
