import { generateAddresses } from './addresses';
import { generateAssignments, type AssignmentParams } from './assignments';
import { generateEquipment, type EquipmentParams } from './equipment';
import { generateFleet, type FleetParams } from './fleet';
import { generateNetwork, type NetworkParams } from './network';
import { generateOrganisation, type OrganisationParams } from './organisation';
import { Random } from './random';
import {
  CAMERA_TYPES,
  CAPACITY_TYPES,
  CONTROLLER_EQUIPMENT_TYPES,
  DVR_TYPES,
  INCIDENT_TYPES,
  MARSH_TYPES,
  MNT_TYPES,
  TICKET_TYPES,
  TICKET_VIEWS,
  TRANSPORT_TYPES,
  WORK_GRAPHIC_TYPES,
  holidays,
} from './reference';
import type { DemoData } from './rows';
import { generateSchedule, type ScheduleParams } from './schedule';
import { generateStops, kmFromCentre, type StopParams } from './stops';

/** Demo data at the size of a large city, or small for tests. */
export type DemoScale = 'city' | 'test';

export interface ScaleParams {
  stops: StopParams;
  organisation: OrganisationParams;
  network: NetworkParams;
  schedule: ScheduleParams;
  fleet: FleetParams;
  equipment: EquipmentParams;
  assignments: AssignmentParams;
}

export const SCALES: Record<DemoScale, ScaleParams> = {
  /** St Petersburg: ~3,000 stops, 150 routes, 20 depots, 2,000 vehicles, 3,000 drivers. */
  city: {
    stops: { sites: 1750, pairShare: 0.75, halfWidthKm: 14, halfHeightKm: 17, centreShare: 0.55, centreSigmaKm: 5, minSpacingKm: 0.25 },
    organisation: { agencies: 6, depots: { bus: 12, trolleybus: 5, tram: 3 }, depotRadiusKm: [5, 11], departments: 6, controlGrid: [4, 3] },
    network: {
      routes: { bus: 110, trolleybus: 25, tram: 15 },
      tripStops: [15, 35],
      stepKm: 0.6,
      maxStepKm: 1.4,
      multiLineRoutes: 2,
      shortVariantShare: 0.3,
    },
    schedule: { maxTimes: 280_000, weekendTimes: false, minGraphs: 2 },
    fleet: { vehicles: 2000, drivers: 3000, controllers: 40 },
    equipment: { dvrShare: 0.4, passengerCounterShare: 0.25, validatorShare: 0.5, spareControllerItems: 10 },
    assignments: { days: 7, replacements: 15 },
  },
  /** Small but complete: every table has rows; the test template is built from it. */
  test: {
    stops: { sites: 36, pairShare: 0.7, halfWidthKm: 3, halfHeightKm: 3.5, centreShare: 0, centreSigmaKm: 2, minSpacingKm: 0.4 },
    organisation: { agencies: 2, depots: { bus: 1, trolleybus: 1, tram: 1 }, depotRadiusKm: [1.5, 3], departments: 2, controlGrid: [2, 2] },
    network: {
      routes: { bus: 3, trolleybus: 1, tram: 1 },
      tripStops: [8, 14],
      stepKm: 0.9,
      maxStepKm: 2.2,
      multiLineRoutes: 1,
      shortVariantShare: 0.5,
    },
    schedule: { maxTimes: 3_800, weekendTimes: false, minGraphs: 1, roundTheClock: true },
    fleet: { vehicles: 30, drivers: 40, controllers: 4 },
    equipment: { dvrShare: 0.5, passengerCounterShare: 0.3, validatorShare: 0.5, spareControllerItems: 2 },
    assignments: { days: 7, replacements: 2 },
  },
};

/**
 * The whole demo operator as plain rows, with explicit ids so that the links are known without asking the
 * database. Pure: the same scale gives the same rows, except the vehicle task dates, which start at `today`.
 */
export function generateDemoData(scale: DemoScale, today: Date = new Date()): DemoData {
  const params = SCALES[scale];
  const random = (area: string) => new Random(`demo/${scale}/${area}`);

  const organisation = generateOrganisation(random('organisation'), params.organisation);
  const { sites, stops } = generateStops(random('stops'), params.stops);
  const network = generateNetwork(random('network'), sites, stops, organisation.depots, params.network);
  const schedule = generateSchedule(random('schedule'), network.routes, params.schedule);
  const fleet = generateFleet(random('fleet'), organisation.depots, organisation.departments, schedule.workdayGraphs, params.fleet);
  const equipment = generateEquipment(random('equipment'), fleet.vehicles, fleet.controllerIds, params.equipment);
  const assignments = generateAssignments(
    random('assignments'),
    today,
    schedule.workdayGraphs,
    fleet.vehicles,
    fleet.drivers,
    params.assignments,
  );
  const centreRoutes = network.routes.filter((route) => route.forward.points.some((point) => kmFromCentre(point) < 1.5)).slice(0, 3);

  return {
    transportTypes: TRANSPORT_TYPES,
    capacityTypes: CAPACITY_TYPES,
    marshTypes: MARSH_TYPES,
    agencies: organisation.agencies,
    depots: organisation.depots.map((depot) => depot.row),
    departments: organisation.departments,
    drivers: fleet.drivers,
    vehicles: fleet.vehicles,
    mntTypes: MNT_TYPES,
    mnts: equipment.mnts,
    passengerCounters: equipment.passengerCounters,
    modems: equipment.modems,
    cameraTypes: CAMERA_TYPES,
    dvrTypes: DVR_TYPES,
    dvrs: equipment.dvrs,
    cameras: equipment.cameras,
    validators: equipment.validators,
    stops,
    routes: network.routes.map((route) => route.row),
    marshVariants: network.marshVariants,
    trips: network.trips,
    tripStops: network.tripStops,
    holidays: holidays(
      [2025, 2026],
      centreRoutes.map((route) => route.row.route_id),
    ),
    raspVariants: schedule.raspVariants,
    raspTimes: schedule.raspTimes,
    workGraphicTypes: WORK_GRAPHIC_TYPES,
    vehicleTasks: assignments.vehicleTasks,
    replaceVehicles: assignments.replaceVehicles,
    ticketViews: TICKET_VIEWS,
    ticketTypes: TICKET_TYPES,
    districts: organisation.districts,
    controlRegions: organisation.controlRegions,
    controllerEquipmentTypes: CONTROLLER_EQUIPMENT_TYPES,
    controllerEquipment: equipment.controllerEquipment,
    controllerCards: equipment.controllerCards,
    incidentTypes: INCIDENT_TYPES,
    addresses: generateAddresses(),
  };
}
