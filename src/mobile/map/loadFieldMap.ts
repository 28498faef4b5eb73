/** The field map's code. */
export const loadFieldMap = () => import('./FieldMapScreen');

/**
 * The map is the landing screen of most users: opened on / or /map, the app fetches its code at once, with the
 * app's own (at start with a stored session, or when the login is submitted) rather than after it.
 */
export function preloadFieldMap(): void {
  if (/^\/m\/?(map\/?)?$/.test(window.location.pathname)) void loadFieldMap().catch(() => undefined);
}
