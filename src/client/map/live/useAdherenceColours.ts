import { useCallback, useMemo } from 'react';
import { ADHERENCE_CLASSES, type Adherence } from '../../../shared/dispatch/api';
import type { MapCluster } from '../../../shared/map';
import { useAdherence } from '../../../web/dispatch/dispatchApi';
import { ADHERENCE_COLORS } from '../../../web/dispatch/dispatchFormat';
import { createStore, useStoreValue } from '../../../web/stores/createStore';
import type { VehicleLegendEntry } from '../../../web/map/vehicleStyle';

/** How the map colours its vehicles: by capacity class (the spec's) or by the live timetable's adherence. */
export type ColourMode = 'class' | 'adherence';
export const colourMode = createStore<ColourMode>('class');
export const useColourMode = () => useStoreValue(colourMode);

/**
 * The adherence colours while the mode is on (GET /api/v1/dispatch/adherence, read every few seconds): a vehicle
 * late, on time or early in its colour, one without a run grey; the legend's entries with their counts.
 */
export function useAdherenceColours(enabled: boolean): {
  colourOf: ((vehicle: MapCluster) => string | null) | null;
  legend: VehicleLegendEntry[];
} {
  const { data } = useAdherence(enabled);
  const byVehicle = useMemo(() => new Map((data?.list ?? []).map((v) => [v.vehicleId, v.adherence])), [data]);
  const colourOf = useCallback((vehicle: MapCluster) => ADHERENCE_COLORS[byVehicle.get(vehicle.id) ?? 'none'], [byVehicle]);
  const legend = useMemo(() => {
    const counts = new Map<Adherence, number>();
    for (const a of byVehicle.values()) counts.set(a, (counts.get(a) ?? 0) + 1);
    return ADHERENCE_CLASSES.map((a) => ({
      color: ADHERENCE_COLORS[a],
      label: `dispatch.adherence.${a}`,
      count: counts.get(a) ?? 0,
      id: a,
    }));
  }, [byVehicle]);
  return { colourOf: enabled ? colourOf : null, legend };
}
