import { VEHICLE_CLASS_COLORS, VEHICLE_CLASSES } from '../../shared/constants';

/** Colour of a vehicle without a known class. */
export const UNKNOWN_CLASS_COLOR = '#1565c0';
/** Colour of a vehicle that stopped reporting (grey-out). */
export const OFF_COLOR = '#9e9e9e';
export const GROUP_COLOR = '#003a72';

/** Spec section 4: ranks 1..4 amber, orange, dark red, dark grey; grey-out when the vehicle is off. */
export function vehicleColor(classRank: number | null | undefined, on: boolean): string {
  if (!on) return OFF_COLOR;
  if (classRank && Number.isInteger(classRank) && classRank >= 1 && classRank <= VEHICLE_CLASS_COLORS.length) {
    return VEHICLE_CLASS_COLORS[classRank - 1];
  }
  return UNKNOWN_CLASS_COLOR;
}

/** One line of the map's legend: a colour vehicleColor gives and the catalogue key (with its values) saying why. */
export interface VehicleLegendEntry {
  color: string;
  label: string;
  values?: Record<string, string>;
  /** Vehicles of the colour, where the mode counts them. */
  count?: number;
  id?: string;
}

/** What each vehicle colour means, from the same constants vehicleColor reads: the classes by rank, no class, off. */
export const VEHICLE_LEGEND: readonly VehicleLegendEntry[] = [
  ...VEHICLE_CLASSES.map((vehicleClass) => ({
    color: VEHICLE_CLASS_COLORS[vehicleClass.rank - 1],
    label: 'mapView.legend.class',
    values: { code: vehicleClass.code, title: vehicleClass.title },
  })),
  { color: UNKNOWN_CLASS_COLOR, label: 'mapView.legend.unknownClass' },
  { color: OFF_COLOR, label: 'mapView.legend.off' },
];

/** Radius of a group circle for its count (logarithmic, 14..26 px). */
export function groupRadius(count: number): number {
  return Math.min(26, 14 + Math.round(Math.log10(Math.max(1, count)) * 4));
}
