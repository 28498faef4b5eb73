import { useMemo } from 'react';
import type { CurrentUser } from '../../shared/api';
import { TOKEN_STORAGE_KEY } from '../../shared/constants';
import { switchesOf, type Switches } from '../../shared/modules';
import { createStore, useStoreValue } from './createStore';

/**
 * The session of spec section 4: logged out (no stored token) or logged in; `initialising` while the
 * current user of a stored token loads at app start. The token lives in localStorage under 'token'.
 */
export interface Session {
  initialising: boolean;
  token: string | null;
  user: CurrentUser | null;
}

export function readToken(): string | null {
  try {
    return localStorage.getItem(TOKEN_STORAGE_KEY);
  } catch {
    return null;
  }
}

function writeToken(token: string | null): void {
  try {
    if (token) localStorage.setItem(TOKEN_STORAGE_KEY, token);
    else localStorage.removeItem(TOKEN_STORAGE_KEY);
  } catch {
    // storage unavailable: the session lasts for this page only
  }
}

const token = readToken();
const session = createStore<Session>({ initialising: token !== null, token, user: null });

export const getSession = (): Session => session.get();
/** Follows the session outside React (the field app keeps the last user for an offline start). */
export const subscribeSession = (listener: () => void): (() => void) => session.subscribe(listener);

export function setLoggedIn(newToken: string, user: CurrentUser): void {
  writeToken(newToken);
  session.set({ initialising: false, token: newToken, user });
}

export function setUser(user: CurrentUser | null): void {
  session.set((s) => ({ ...s, user }));
}

/** A refreshed token from a response header, kept only while logged in. */
export function replaceToken(newToken: string): void {
  if (!session.get().token) return;
  writeToken(newToken);
  session.set((s) => ({ ...s, token: newToken }));
}

export function endInitialisation(): void {
  session.set((s) => (s.initialising ? { ...s, initialising: false } : s));
}

export function clearSession(): void {
  writeToken(null);
  session.set({ initialising: false, token: null, user: null });
}

export function useSession(): Session {
  return useStoreValue(session);
}

/** The logged-in user, or null before the current user has loaded. */
export function useCurrentUser(): CurrentUser | null {
  return useStoreValue(session).user;
}

/** The module and section switches in force for the current user. */
export function useSwitches(): Switches {
  const user = useCurrentUser();
  return useMemo(() => switchesOf(user), [user]);
}
