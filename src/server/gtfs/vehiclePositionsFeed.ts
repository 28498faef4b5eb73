import { VEHICLE_STALE_MS } from '../../shared/map';
import type { VehicleInfo } from '../map/fleetDirectory';
import type { LatestPosition } from '../telemetry/types';
import { feedMessage, vehicleDescriptor, type FeedEntity, type FeedMessage, type TripDescriptor } from './realtimeFeed';

export interface FeedSource {
  positions(): Iterable<[number, LatestPosition]>;
  vehicle(id: number): VehicleInfo | undefined;
  /** The trip the live timetable matched the vehicle to, with the static feed's ids; else its task's route alone; null without either. */
  tripOf(vehicleId: number): TripDescriptor | null;
}

/**
 * GTFS-Realtime VehiclePositions (FULL_DATASET) of every vehicle that reported within VEHICLE_STALE_MS:
 * entity id = our vehicle id (unique), the vehicle as the trip updates name it, the trip of its run, speed in
 * m/s as the standard asks.
 */
export function buildVehiclePositions(source: FeedSource, now: number): FeedMessage {
  const entity: FeedEntity[] = [];
  for (const [id, p] of source.positions()) {
    if (now - p.time >= VEHICLE_STALE_MS) continue;
    entity.push({
      id: String(id),
      vehicle: {
        trip: source.tripOf(id),
        vehicle: vehicleDescriptor(id, source.vehicle(id)),
        position: { latitude: p.lat, longitude: p.lon, bearing: p.course, speed: Math.round((p.speed / 3.6) * 100) / 100 },
        timestamp: Math.floor(p.time / 1000),
      },
    });
  }
  return feedMessage(entity, now);
}
