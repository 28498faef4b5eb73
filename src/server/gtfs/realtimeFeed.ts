import GtfsRealtimeBindings from 'gtfs-realtime-bindings';
import type { VehicleInfo } from '../map/fleetDirectory';

export const rt = GtfsRealtimeBindings.transit_realtime;
export type FeedMessage = GtfsRealtimeBindings.transit_realtime.FeedMessage;
export type FeedEntity = GtfsRealtimeBindings.transit_realtime.IFeedEntity;
export type TripDescriptor = GtfsRealtimeBindings.transit_realtime.ITripDescriptor;

/** A whole feed (FULL_DATASET) of these entities as of `now`. */
export function feedMessage(entity: FeedEntity[], now: number): FeedMessage {
  return rt.FeedMessage.create({
    header: { gtfsRealtimeVersion: '2.0', incrementality: rt.FeedHeader.Incrementality.FULL_DATASET, timestamp: Math.floor(now / 1000) },
    entity,
  });
}

/**
 * A vehicle as both feeds name it, so a consumer joins a trip update to its vehicle's position: id and label the
 * depot number passengers read on the side (our id when the fleet does not know it), the plate.
 */
export function vehicleDescriptor(
  vehicleId: number,
  info: VehicleInfo | undefined,
): GtfsRealtimeBindings.transit_realtime.IVehicleDescriptor {
  const label = String(info?.depotNumber ?? vehicleId);
  return { id: label, label, ...(info?.gosNomer ? { licensePlate: info.gosNomer } : {}) };
}

export function encodeFeed(message: FeedMessage): Uint8Array {
  return rt.FeedMessage.encode(message).finish();
}

/** The same feed as plain JSON for people (enums as names, 64-bit times as numbers). */
export function feedAsJson(message: FeedMessage): Record<string, unknown> {
  return rt.FeedMessage.toObject(message, { longs: Number, enums: String, defaults: false });
}
