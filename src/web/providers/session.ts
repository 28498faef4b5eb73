import type { CurrentUser, LoginResponse, MapPosition } from '../../shared/api';
import type { PermissionMap } from '../../shared/permissions';
import { applySavedPosition, setSavedPosition } from '../stores/mapPositionStore';
import { clearSession, endInitialisation, getSession, readToken, setLoggedIn, setUser } from '../stores/sessionStore';
import { HttpError, getJson, handleFailure, postJson, request } from './httpClient';

/** Session calls of spec section 7, shared by the login page and the authProvider. */

function applyUser(user: CurrentUser): void {
  setUser(user);
  applySavedPosition(user.mapSettings);
}

/** POST /api/v1/auth/login. Errors are left to the caller (the login form shows its own message bar). */
export async function login(username: string, password: string): Promise<CurrentUser> {
  const { token, user } = await postJson<LoginResponse>('/api/v1/auth/login', { username, password }, { handleErrors: false });
  setLoggedIn(token, user);
  applySavedPosition(user.mapSettings);
  return user;
}

/** GET api/v1/auth/logout (a missing response is tolerated), then the token is removed. */
export async function logout(): Promise<void> {
  if (readToken()) {
    try {
      await request('/api/v1/auth/logout', { handleErrors: false });
    } catch {
      // the server may be down or the session already gone: the console logs out anyway
    }
  }
  clearSession();
}

/**
 * App start (spec section 4): with a stored token, the current user is loaded and applied; the
 * initialisation ends whether or not that worked. Without a token nothing is loaded. `whenUnreachable`
 * (the field app) gives the user to start with when the server does not answer: the last one it loaded.
 */
export async function initialiseSession(options: { whenUnreachable?: () => CurrentUser | null } = {}): Promise<void> {
  if (!readToken()) {
    endInitialisation();
    return;
  }
  try {
    const unreachable = options.whenUnreachable;
    if (unreachable && typeof navigator !== 'undefined' && navigator.onLine === false) {
      const kept = unreachable();
      if (kept) {
        applyUser(kept);
        return;
      }
    }
    applyUser(await getJson<CurrentUser>('/api/v1/auth/current/', { handleErrors: !unreachable }));
  } catch (error) {
    // 401 has already logged out; no response has gone to /server-error (or, in the field app, to the kept user)
    if (options.whenUnreachable) {
      const kept = error instanceof HttpError && error.status === 0 ? options.whenUnreachable() : null;
      if (kept) applyUser(kept);
      else if (error instanceof HttpError) handleFailure(error);
    }
  } finally {
    endInitialisation();
  }
}

/** Reloads the current user (after a change of the user's own settings, for instance). */
export async function reloadCurrentUser(): Promise<CurrentUser> {
  const user = await getJson<CurrentUser>('/api/v1/auth/current/');
  applyUser(user);
  return user;
}

/** POST /api/v1/auth/update-permissions: picks up role changes without logging in again. */
export async function refreshPermissions(): Promise<PermissionMap> {
  const { permissions } = await postJson<{ permissions: PermissionMap }>('/api/v1/auth/update-permissions');
  const user = getSession().user;
  if (user) setUser({ ...user, permissions });
  return permissions;
}

/** POST /api/v1/auth/coord: stores the map position with the user; it becomes the saved position. */
export async function saveMapPosition(position: MapPosition): Promise<MapPosition> {
  const saved = await postJson<MapPosition>('/api/v1/auth/coord', position);
  setSavedPosition(saved);
  const user = getSession().user;
  if (user) setUser({ ...user, mapSettings: saved });
  return saved;
}
