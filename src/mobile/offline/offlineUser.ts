import type { CurrentUser } from '../../shared/api';
import { getSession, subscribeSession } from '../../web/stores/sessionStore';
import { forgetAnswers } from './offlineCache';

/**
 * The last current user the field app loaded, kept on the phone, so the app started without a connection
 * (a cold reload offline, served by the service worker) still knows what the user may open: the handbooks
 * seen before and ticket control's queue. Only while a token is stored: logging out forgets it, and what
 * the user read. The server checks every call anyway; this only decides what the phone shows.
 */
const KEY = 'field.lastUser';

export function keptUser(): CurrentUser | null {
  try {
    const text = localStorage.getItem(KEY);
    return text ? (JSON.parse(text) as CurrentUser) : null;
  } catch {
    return null;
  }
}

export function keepLastUser(): void {
  let previous = getSession();
  subscribeSession(() => {
    const next = getSession();
    try {
      if (next.user && next.user !== previous.user) localStorage.setItem(KEY, JSON.stringify(next.user));
      if (!next.token && previous.token) {
        localStorage.removeItem(KEY);
        void forgetAnswers();
      }
    } catch {
      // storage blocked: no offline start
    }
    previous = next;
  });
}
