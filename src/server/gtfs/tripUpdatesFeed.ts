import type { VehicleInfo } from '../map/fleetDirectory';
import type { LiveTripUpdate } from './liveRuns';
import { feedMessage, rt, vehicleDescriptor, type FeedEntity, type FeedMessage, type TripDescriptor } from './realtimeFeed';

export interface TripUpdatesSource {
  updates(now: number): Iterable<LiveTripUpdate>;
  cancelled(): TripDescriptor[];
  vehicle(id: number): VehicleInfo | undefined;
}

/** Trip updates a slice: between slices the event loop is free (a city's whole fleet takes a few hundred ms). */
const SLICE = 200;

/** An entity's key in a FeedMessage: field 2, length-delimited ((2 << 3) | 2). */
const ENTITY_KEY = 18;

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * GTFS-Realtime TripUpdates (FULL_DATASET): per vehicle on a run, entity id = our vehicle id (as in
 * VehiclePositions), its trip, its vehicle as VehiclePositions names it, its deviation as the trip's delay, and
 * the predicted times of the stops ahead; then the trips not performed as CANCELED. Built and encoded a slice at
 * a time (the header's message, then each entity as the field it is in the feed: a message's fields may come in
 * any parts), so positions are taken in meanwhile.
 */
export async function buildTripUpdates(
  source: TripUpdatesSource,
  now: number,
  pause = nextTurn,
): Promise<{ message: FeedMessage; bytes: Buffer }> {
  const entity: FeedEntity[] = [];
  // one writer for the whole feed: the header, then each slice's entities, taken out as one chunk a slice
  const writer = rt.FeedMessage.encode(feedMessage([], now));
  const chunks: Uint8Array[] = [];
  let slice: FeedEntity[] = [];
  const flush = () => {
    for (const e of slice) rt.FeedEntity.encode(e, writer.uint32(ENTITY_KEY).fork()).ldelim();
    chunks.push(writer.finish());
    writer.reset();
    slice = [];
  };
  for (const u of source.updates(now)) {
    const e: FeedEntity = {
      id: String(u.vehicleId),
      tripUpdate: {
        trip: u.trip,
        vehicle: vehicleDescriptor(u.vehicleId, source.vehicle(u.vehicleId)),
        stopTimeUpdate: u.stops,
        timestamp: u.timestamp,
        ...(u.delay !== null ? { delay: u.delay } : {}),
      },
    };
    entity.push(e);
    slice.push(e);
    if (slice.length === SLICE) {
      flush();
      await pause();
    }
  }
  for (const trip of source.cancelled()) {
    const e: FeedEntity = { id: `cancelled-${trip.startDate}-${trip.tripId}`, tripUpdate: { trip } };
    entity.push(e);
    slice.push(e);
  }
  flush();
  return { message: feedMessage(entity, now), bytes: Buffer.concat(chunks) };
}
