import type { VehicleInfo } from '../map/fleetDirectory';
import type { LiveTripUpdate } from './liveRuns';
import { feedMessage, rt, vehicleDescriptor, type FeedEntity, type FeedMessage, type TripDescriptor } from './realtimeFeed';

export interface TripUpdatesSource {
  updates(now: number): Iterable<LiveTripUpdate>;
  cancelled(): TripDescriptor[];
  vehicle(id: number): VehicleInfo | undefined;
  /** Each update's encoded entity, kept while the source gives the same update for the same vehicle record. */
  encoded?: WeakMap<LiveTripUpdate, EncodedEntity>;
}

/** A trip update's entity as it stands in the feed (length-delimited), and the vehicle record it names. */
export interface EncodedEntity {
  vehicle: VehicleInfo | undefined;
  bytes: Uint8Array;
}

/** Trip updates a slice: between slices the event loop is free (a city's whole fleet takes a few hundred ms to make anew). */
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
  // one writer for the whole feed: the header, then each entity as a length-delimited field, taken out a slice at a time
  const writer = rt.FeedMessage.encode(feedMessage([], now));
  const chunks: Uint8Array[] = [];
  const flush = () => {
    chunks.push(writer.finish());
    writer.reset();
  };
  let inSlice = 0;
  for (const u of source.updates(now)) {
    const vehicle = source.vehicle(u.vehicleId);
    const e: FeedEntity = {
      id: String(u.vehicleId),
      tripUpdate: {
        trip: u.trip,
        vehicle: vehicleDescriptor(u.vehicleId, vehicle),
        stopTimeUpdate: u.stops,
        timestamp: u.timestamp,
        ...(u.delay !== null ? { delay: u.delay } : {}),
      },
    };
    entity.push(e);
    let encoded = source.encoded?.get(u);
    if (!encoded || encoded.vehicle !== vehicle) {
      encoded = { vehicle, bytes: rt.FeedEntity.encode(e).finish() };
      source.encoded?.set(u, encoded);
    }
    writer.uint32(ENTITY_KEY).bytes(encoded.bytes);
    if (++inSlice === SLICE) {
      inSlice = 0;
      flush();
      await pause();
    }
  }
  for (const trip of source.cancelled()) {
    const e: FeedEntity = { id: `cancelled-${trip.startDate}-${trip.tripId}`, tripUpdate: { trip } };
    entity.push(e);
    rt.FeedEntity.encode(e, writer.uint32(ENTITY_KEY).fork()).ldelim();
  }
  flush();
  return { message: feedMessage(entity, now), bytes: Buffer.concat(chunks) };
}
