import { isoDate } from '../../../shared/format';
import type { Random } from './random';
import type { DriverRow, ReplaceVehicleRow, VehicleRow, VehicleTaskRow } from './rows';
import type { Graph } from './schedule';

export interface AssignmentParams {
  days: number;
  /** Mid-day vehicle replacements on the first day. */
  replacements: number;
}

/** 'YYYY-MM-DD' of the local calendar day `offset` days after `day`. */
export function localDate(day: Date, offset = 0): string {
  return isoDate(new Date(day.getFullYear(), day.getMonth(), day.getDate() + offset));
}

/**
 * Vehicle tasks from `today` for `days` days: each graph keeps the same vehicle of its route's depot every day,
 * each shift gets a driver of that depot, the depot's drivers rotating from day to day (never twice in one day).
 * Then a few replacements by reserve vehicles on the first day.
 */
export function generateAssignments(
  random: Random,
  today: Date,
  graphs: Graph[],
  vehicles: VehicleRow[],
  drivers: DriverRow[],
  params: AssignmentParams,
): { vehicleTasks: VehicleTaskRow[]; replaceVehicles: ReplaceVehicleRow[] } {
  const vehicleTasks: VehicleTaskRow[] = [];
  const replaceVehicles: ReplaceVehicleRow[] = [];
  const depotIds = [...new Set(graphs.map((g) => g.route.row.Depot_id))].sort((a, b) => a - b);
  const firstDay: { graph: Graph; vehicle: VehicleRow; reserve: VehicleRow[]; drivers: Map<string, number> }[] = [];

  for (const depotId of depotIds) {
    const depotGraphs = graphs.filter((g) => g.route.row.Depot_id === depotId);
    const depotVehicles = vehicles.filter((v) => v.depot_id === depotId);
    const depotDrivers = drivers.filter((d) => d.depot_id === depotId && d.end_date === null);
    const slots = depotGraphs.flatMap((graph, j) => graph.smenas.map((smena) => ({ graph, j, smena })));
    if (depotVehicles.length < depotGraphs.length || depotDrivers.length < slots.length)
      throw new Error(`depot ${depotId}: not enough vehicles or drivers`);
    const reserve = depotVehicles.slice(depotGraphs.length);
    for (let day = 0; day < params.days; day++) {
      const date = localDate(today, day);
      slots.forEach(({ graph, j, smena }, k) => {
        const driver = depotDrivers[(k + day * slots.length) % depotDrivers.length];
        vehicleTasks.push({
          id: vehicleTasks.length + 1,
          date,
          RaspVariant_id: graph.raspVariantId,
          graph: graph.graph,
          smena,
          vehicle_id: depotVehicles[j].id,
          driver_id: driver.driver_id,
        });
        if (day === 0) {
          if (smena === graph.smenas[0]) firstDay.push({ graph, vehicle: depotVehicles[j], reserve, drivers: new Map() });
          firstDay[firstDay.length - 1].drivers.set(smena, driver.driver_id);
        }
      });
    }
  }

  const candidates = firstDay.filter((entry) => entry.reserve.length > 0 && entry.graph.end - entry.graph.start > 120);
  for (const entry of random.shuffle(candidates)) {
    if (replaceVehicles.length >= params.replacements) break;
    // A reserve vehicle replaces one graph only.
    if (entry.reserve.length === 0) continue;
    const [substitute] = entry.reserve.splice(random.int(0, entry.reserve.length - 1), 1);
    const starttime = Math.round(random.int(entry.graph.start + 30, entry.graph.end - 60) / 5) * 5;
    const smena = entry.graph.smenas.length > 1 && starttime >= 840 ? entry.graph.smenas[1] : entry.graph.smenas[0];
    replaceVehicles.push({
      id: replaceVehicles.length + 1,
      date: localDate(today),
      RaspVariant_id: entry.graph.raspVariantId,
      graph: entry.graph.graph,
      smena,
      vehicle_id: entry.vehicle.id,
      replace_vehicle_id: substitute.id,
      driver_id: entry.drivers.get(smena) ?? 0,
      starttime,
    });
  }
  return { vehicleTasks, replaceVehicles };
}
