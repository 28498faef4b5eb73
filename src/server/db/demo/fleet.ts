import { nearestIndex } from './geography';
import type { Depot } from './organisation';
import type { Random } from './random';
import { CAPACITY, TRANSPORT_TYPE, type TransportKind } from './reference';
import type { DepartmentRow, DriverRow, VehicleRow } from './rows';
import type { Graph } from './schedule';
import { personName, plateNumber, vin } from './words';

export interface FleetParams {
  /** Targets: every depot gets at least what its graphs need plus a reserve, the rest is shared out by need. */
  vehicles: number;
  drivers: number;
  /** Ticket controllers: employees of a territorial department, with no depot. */
  controllers: number;
}

type Model = readonly [name: string, capacity: keyof typeof CAPACITY, maker: string, weight: number];

const MODELS: Record<TransportKind | 'privateBus', readonly Model[]> = {
  bus: [
    ['ЛиАЗ-5292.65', 'БК', 'XTY', 5],
    ['ЛиАЗ-6213.65', 'ОБК', 'XTY', 1],
    ['МАЗ-203.047', 'БК', 'Y3M', 2],
    ['Volgabus-5270.G2', 'БК', 'X89', 2],
    ['НефАЗ-5299-40-52', 'БК', 'X1F', 1],
    ['ПАЗ-320435-04 «Vector Next»', 'СК', 'X1M', 1],
    ['ЛиАЗ-4292.60', 'СК', 'XTY', 1],
    ['МАЗ-206.067', 'СК', 'Y3M', 1],
  ],
  privateBus: [
    ['ГАЗель Next A68R52', 'МК', 'X96', 3],
    ['ПАЗ-320435-04 «Vector Next»', 'СК', 'X1M', 3],
    ['МАЗ-206.067', 'СК', 'Y3M', 2],
    ['Volgabus-4298.G4', 'СК', 'X89', 1],
    ['ЛиАЗ-5292.65', 'БК', 'XTY', 1],
    ['МАЗ-203.047', 'БК', 'Y3M', 1],
  ],
  trolleybus: [
    ['ПКТС-6281.00 «Адмирал»', 'БК', 'X89', 3],
    ['ВМЗ-5298.01 «Авангард»', 'БК', 'X89', 1],
    ['Тролза-5265.08 «Мегаполис»', 'БК', 'X89', 1],
    ['АКСМ-321', 'БК', 'Y3A', 1],
    ['АКСМ-433 «Витовт Макс»', 'ОБК', 'Y3A', 1],
  ],
  tram: [
    ['71-931М «Витязь-М»', 'ОБК', 'X89', 2],
    ['ЛМ-68М2', 'БК', 'X89', 1],
    ['71-623-02', 'БК', 'X89', 2],
    ['ЛВС-2005', 'ОБК', 'X89', 1],
    ['71-911ЕМ «Львёнок»', 'БК', 'X89', 1],
    ['Stadler B85300М «Метелица»', 'ОБК', 'X89', 1],
  ],
};

/** EGTS terminal ids (TID, OID) are 4-byte numbers: the demo terminals' peer addresses fit in them. */
export const TERMINAL_ID_BASE = 3_000_000;

const FEMALE_SHARE: Record<TransportKind, number> = { bus: 0.12, trolleybus: 0.35, tram: 0.5 };

function pickModel(random: Random, models: readonly Model[]): Model {
  let roll = random.next() * models.reduce((sum, model) => sum + model[3], 0);
  for (const model of models) {
    roll -= model[3];
    if (roll < 0) return model;
  }
  return models[models.length - 1];
}

/** Per depot: at least `minimum`, the rest of `total` shared out in proportion to `weight`. */
function shareOut(minimum: number[], weight: number[], total: number): number[] {
  const extra = Math.max(0, total - minimum.reduce((a, b) => a + b, 0));
  const weights = weight.reduce((a, b) => a + b, 0) || 1;
  const counts = minimum.map((m, i) => m + Math.floor((extra * weight[i]) / weights));
  for (let i = 0, left = total - counts.reduce((a, b) => a + b, 0); left > 0; i = (i + 1) % counts.length, left--) counts[i] += 1;
  return counts;
}

const isoDay = (random: Random, fromYear: number, toYear: number) =>
  `${random.int(fromYear, toYear)}-${String(random.int(1, 12)).padStart(2, '0')}-${String(random.int(1, 28)).padStart(2, '0')}`;

export interface Fleet {
  vehicles: VehicleRow[];
  drivers: DriverRow[];
  controllerIds: number[];
}

/** Vehicles and drivers of every depot, sized from the graphs its routes run; controllers at the end of the driver list. */
export function generateFleet(random: Random, depots: Depot[], departments: DepartmentRow[], graphs: Graph[], params: FleetParams): Fleet {
  const graphsOf = depots.map((d) => graphs.filter((g) => g.route.row.Depot_id === d.row.depot_id));
  const needVehicles = graphsOf.map((list) => list.length);
  const needDrivers = graphsOf.map((list) => list.reduce((sum, g) => sum + g.smenas.length, 0));
  const vehicleCounts = shareOut(
    needVehicles.map((n) => Math.ceil(n * 1.15) + 1),
    needVehicles.map((n) => n + 1),
    params.vehicles,
  );
  const driverCounts = shareOut(
    needDrivers.map((n) => Math.ceil(n * 1.25) + 2),
    needDrivers.map((n) => n + 1),
    params.drivers,
  );
  const departmentPoints = departments.map((d) => ({ lat: d.td_lat, lon: d.td_lon }));

  const vehicles: VehicleRow[] = [];
  const drivers: DriverRow[] = [];
  const plates = new Set<string>();
  depots.forEach(({ row: depot, kind }, d) => {
    if (vehicleCounts[d] > 999) throw new Error(`depot ${depot.depot_id}: too many vehicles for its board numbers`);
    const models = kind === 'bus' && depot.agency_id !== 1 ? MODELS.privateBus : MODELS[kind];
    for (let i = 0; i < vehicleCounts[d]; i++) {
      const [model, capacity, maker] = pickModel(random, models);
      let plate: string | null = null;
      if (kind === 'bus') {
        do plate = plateNumber(random);
        while (plates.has(plate));
        plates.add(plate);
      }
      const id = vehicles.length + 1;
      vehicles.push({
        id,
        depot_id: depot.depot_id,
        vehicle_type_id: TRANSPORT_TYPE[kind],
        model,
        capacity_type_id: CAPACITY[capacity],
        depot_number: depot.depot_id * 1000 + i + 1,
        state_number: plate,
        vin: vin(random, maker),
        peer_address: String(TERMINAL_ID_BASE + id),
        update_date: new Date(Date.UTC(2025, 0, 1) + random.int(0, 300 * 86400) * 1000).toISOString(),
        do_not_update: true,
      });
    }
    const tdId = departments[nearestIndex({ lat: depot.dp_lat, lon: depot.dp_lon }, departmentPoints)]?.td_id ?? null;
    for (let i = 0; i < driverCounts[d]; i++) {
      const name = personName(random, FEMALE_SHARE[kind]);
      drivers.push({
        driver_id: drivers.length + 1,
        last_name: name.last,
        first_name: name.first,
        middle_name: name.middle,
        depot_id: depot.depot_id,
        table_number: depot.depot_id * 10000 + i + 1,
        td_id: random.chance(0.6) ? tdId : null,
        start_date: isoDay(random, 2000, 2024),
        end_date: random.chance(0.02) ? isoDay(random, 2025, 2025) : null,
        do_not_update: true,
      });
    }
  });

  const controllerIds: number[] = [];
  for (let i = 0; i < params.controllers; i++) {
    const name = personName(random, 0.5);
    const driver_id = drivers.length + 1;
    controllerIds.push(driver_id);
    drivers.push({
      driver_id,
      last_name: name.last,
      first_name: name.first,
      middle_name: name.middle,
      depot_id: null,
      table_number: 900000 + i + 1,
      td_id: departments[i % departments.length].td_id,
      start_date: isoDay(random, 2010, 2024),
      end_date: null,
      do_not_update: true,
    });
  }
  return { vehicles, drivers, controllerIds };
}
