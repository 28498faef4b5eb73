import { CONSOLE_ROUTES, type ConsoleRoute } from './routes';
import { HANDBOOKS_PREFIX, canAccess, isAlwaysAvailable, type AccessSubject, type Action } from './permissions';
import { isEnabled, type Switches } from './modules';
import { cleanPath } from './paths';

/**
 * Route-level decisions the front ends take from the shared tables: which console route a URL belongs to,
 * and whether the subject may open it (spec section 2: a route exists only if built, its module and
 * section are on; then the permission decides).
 */

/** The console route a URL belongs to: the route with the longest path equal to it or prefixing it. */
export function routeForPath(path: string, routes: readonly ConsoleRoute[] = CONSOLE_ROUTES): ConsoleRoute | undefined {
  const clean = cleanPath(path);
  let best: ConsoleRoute | undefined;
  for (const route of routes) {
    const matches = clean === route.path || clean.startsWith(`${route.path}/`);
    if (matches && (!best || route.path.length > best.path.length)) best = route;
  }
  return best;
}

/** The module, the section and, for a handbook URL, that handbook's section are switched on. */
function switchedOn(switches: Switches, route: ConsoleRoute, path: string): boolean {
  if (!isEnabled(switches, route.module, route.section)) return false;
  if (route.path !== HANDBOOKS_PREFIX || !path.startsWith(`${HANDBOOKS_PREFIX}/`)) return true;
  const type = path.slice(HANDBOOKS_PREFIX.length + 1).split('/')[0];
  return isEnabled(switches, 'handbooks', `handbooks.${type}`);
}

/**
 * react-admin's canAccess for a path: the permission (read on the route's key when it has one, e.g.
 * /users/create reads /users, otherwise on the URL itself so that a handbook URL reads that
 * handbook's key) and the module and section switches. Always-available pages are always allowed.
 */
export function mayAccess(subject: AccessSubject | null | undefined, switches: Switches, path: string, action: Action = 'read'): boolean {
  const clean = cleanPath(path);
  if (isAlwaysAvailable(clean)) return true;
  const route = routeForPath(clean);
  if (route && !switchedOn(switches, route, clean)) return false;
  return canAccess(subject, route?.key ?? clean, action);
}

export type RouteVerdict = 'allowed' | 'not-found' | 'access-denied';

/**
 * May the subject open this URL? Always-available pages are allowed; a URL of no built route, or of a
 * route (or handbook) switched off, is not found; a built, switched-on route the subject may not perform
 * `action` on is access denied.
 */
export function routeVerdict(
  subject: AccessSubject | null | undefined,
  switches: Switches,
  path: string,
  action: Action = 'read',
): RouteVerdict {
  const clean = cleanPath(path);
  if (isAlwaysAvailable(clean)) return 'allowed';
  const route = routeForPath(clean);
  if (!route || !route.built || !switchedOn(switches, route, clean)) return 'not-found';
  return mayAccess(subject, switches, clean, action) ? 'allowed' : 'access-denied';
}
