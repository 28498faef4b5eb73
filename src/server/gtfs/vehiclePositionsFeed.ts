import GtfsRealtimeBindings from 'gtfs-realtime-bindings';
import { VEHICLE_STALE_MS } from '../../shared/map';
import type { VehicleInfo } from '../map/fleetDirectory';
import type { LatestPosition } from '../telemetry/types';

const { transit_realtime: rt } = GtfsRealtimeBindings;

export interface FeedSource {
  positions(): Iterable<[number, LatestPosition]>;
  vehicle(id: number): VehicleInfo | undefined;
  /** The static feed's trip id of the race a vehicle runs now, when its timetable says one. */
  tripOf?(vehicleId: number, now: number): string | null;
  /** A route's id in the static feed (the GTFS id it was imported under, else ours). */
  routeKey?(routeId: number): string;
}

/**
 * GTFS-Realtime VehiclePositions (FULL_DATASET) of every vehicle that reported within VEHICLE_STALE_MS:
 * entity id = our vehicle id (unique), vehicle id and label = the depot number passengers read on the side,
 * route from today's assignment and trip by its timetable, with the static feed's ids, speed in m/s as the
 * standard asks.
 */
export function buildVehiclePositions(source: FeedSource, now: number): GtfsRealtimeBindings.transit_realtime.FeedMessage {
  const entity: GtfsRealtimeBindings.transit_realtime.IFeedEntity[] = [];
  for (const [id, p] of source.positions()) {
    if (now - p.time >= VEHICLE_STALE_MS) continue;
    const info = source.vehicle(id);
    const tripId = source.tripOf?.(id, now) ?? null;
    const label = String(info?.depotNumber ?? id);
    entity.push({
      id: String(id),
      vehicle: {
        trip: info?.routeId ? { routeId: source.routeKey?.(info.routeId) ?? String(info.routeId), ...(tripId ? { tripId } : {}) } : null,
        vehicle: { id: label, label, ...(info?.gosNomer ? { licensePlate: info.gosNomer } : {}) },
        position: { latitude: p.lat, longitude: p.lon, bearing: p.course, speed: Math.round((p.speed / 3.6) * 100) / 100 },
        timestamp: Math.floor(p.time / 1000),
      },
    });
  }
  return rt.FeedMessage.create({
    header: { gtfsRealtimeVersion: '2.0', incrementality: rt.FeedHeader.Incrementality.FULL_DATASET, timestamp: Math.floor(now / 1000) },
    entity,
  });
}

export function encodeFeed(message: GtfsRealtimeBindings.transit_realtime.FeedMessage): Uint8Array {
  return rt.FeedMessage.encode(message).finish();
}

/** The same feed as plain JSON for people (enums as names, 64-bit times as numbers). */
export function feedAsJson(message: GtfsRealtimeBindings.transit_realtime.FeedMessage): Record<string, unknown> {
  return rt.FeedMessage.toObject(message, { longs: Number, enums: String, defaults: false });
}

export function decodeFeed(bytes: Uint8Array): GtfsRealtimeBindings.transit_realtime.FeedMessage {
  return rt.FeedMessage.decode(bytes);
}
