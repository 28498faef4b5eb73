import type { ModuleId } from '../../shared/modules';

/** The module filter of spec section 2: All, UMP, Video, Passenger flow, Ticket control, Monitoring. */
export const MODULE_FILTERS = ['all', 'ump', 'video', 'passengers', 'bc', 'monitoring'] as const;
export type ModuleFilter = (typeof MODULE_FILTERS)[number];

/** Which filter each module falls under (UMP: the fleet-management core — map, handbooks, settings, …). */
export const MODULE_CATEGORY: Record<ModuleId, Exclude<ModuleFilter, 'all'>> = {
  map: 'ump',
  adas: 'ump',
  dispatch: 'ump',
  system: 'ump',
  handbooks: 'ump',
  journals: 'ump',
  administration: 'ump',
  video: 'video',
  passengers: 'passengers',
  bc: 'bc',
  importData: 'bc',
  mntConfiguration: 'monitoring',
  vehicleWorkData: 'monitoring',
  vehicleDiagnostic: 'monitoring',
  pdm: 'monitoring',
};

export function inFilter(module: ModuleId, filter: ModuleFilter): boolean {
  return filter === 'all' || MODULE_CATEGORY[module] === filter;
}
