import { MOBILE_BASE } from '../constants';

/** The field map's code. */
export const loadFieldMap = () => import('./FieldMapScreen');
/** What opens the map's live stream with the login's answer (fieldMapStream.ts). */
export const loadFieldMapStream = () => import('./fieldMapStream');

/** The map is the landing screen of most users: opened on / or /map. */
const MAP_LANDING = new RegExp(`^${MOBILE_BASE}/?(map/?)?$`);
export const opensOnMap = () => MAP_LANDING.test(window.location.pathname);

/**
 * Opened on the map, the app fetches the map's code at once, with the app's own (at start with a stored
 * session, or when the login is typed) rather than after it.
 */
export function preloadFieldMap(): void {
  if (!opensOnMap()) return;
  void loadFieldMap().catch(() => undefined);
  void loadFieldMapStream().catch(() => undefined);
}
