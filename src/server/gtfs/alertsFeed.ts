import type { ActiveAlert } from '../dispatch/serviceAlerts';
import { feedMessage, rt, type FeedEntity, type FeedMessage } from './realtimeFeed';

/** What the Alerts feed names: the static export's ids of our routes, stops and agencies. */
export interface AlertIds {
  route(localId: number): string;
  stop(localId: number): string;
  /** The agencies of the exported network: the informed entities of an alert on the whole network. */
  agencies: readonly string[];
}

/** The texts are the dispatchers' Russian ones. */
const LANGUAGE = 'ru';
const text = (value: string) => ({ translation: [{ text: value, language: LANGUAGE }] });
const seconds = (ms: number) => Math.floor(ms / 1000);

/**
 * GTFS-Realtime Alerts (FULL_DATASET): one entity per published alert in force, id `alert-<our id>`; its cause and
 * effect, its period, header and description in Russian, and its informed entities by the static feed's ids (each
 * route, each stop; the whole network as each agency of it).
 */
export function buildAlerts(alerts: readonly ActiveAlert[], ids: AlertIds, now: number): { message: FeedMessage; bytes: Buffer } {
  const entity: FeedEntity[] = alerts.map((a) => ({
    id: `alert-${a.id}`,
    alert: {
      activePeriod: [{ start: seconds(a.activeFrom), ...(a.activeTo !== null ? { end: seconds(a.activeTo) } : {}) }],
      informedEntity: a.wholeNetwork
        ? ids.agencies.map((agencyId) => ({ agencyId }))
        : [...a.routeIds.map((id) => ({ routeId: ids.route(id) })), ...a.stopIds.map((id) => ({ stopId: ids.stop(id) }))],
      cause: rt.Alert.Cause[a.cause],
      effect: rt.Alert.Effect[a.effect],
      headerText: text(a.header),
      ...(a.description ? { descriptionText: text(a.description) } : {}),
    },
  }));
  const message = feedMessage(entity, now);
  return { message, bytes: Buffer.from(rt.FeedMessage.encode(message).finish()) };
}
