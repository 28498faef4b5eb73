import type { VehicleInfo } from '../map/fleetDirectory';
import type { LiveTripUpdate } from './liveRuns';
import { feedMessage, vehicleDescriptor, type FeedEntity, type FeedMessage, type TripDescriptor } from './realtimeFeed';

export interface TripUpdatesSource {
  updates(now: number): LiveTripUpdate[];
  cancelled(): TripDescriptor[];
  vehicle(id: number): VehicleInfo | undefined;
}

/**
 * GTFS-Realtime TripUpdates (FULL_DATASET): per vehicle on a run, entity id = our vehicle id (as in
 * VehiclePositions), its trip, its vehicle as VehiclePositions names it, its deviation as the trip's delay, and
 * the predicted times of the stops ahead; then the trips not performed as CANCELED.
 */
export function buildTripUpdates(source: TripUpdatesSource, now: number): FeedMessage {
  const entity: FeedEntity[] = source.updates(now).map((u) => ({
    id: String(u.vehicleId),
    tripUpdate: {
      trip: u.trip,
      vehicle: vehicleDescriptor(u.vehicleId, source.vehicle(u.vehicleId)),
      stopTimeUpdate: u.stops,
      timestamp: u.timestamp,
      ...(u.delay !== null ? { delay: u.delay } : {}),
    },
  }));
  for (const trip of source.cancelled()) entity.push({ id: `cancelled-${trip.startDate}-${trip.tripId}`, tripUpdate: { trip } });
  return feedMessage(entity, now);
}
