import { getSession, subscribeSession } from '../../web/stores/sessionStore';
import { MOBILE_BASE } from '../constants';

/**
 * After login, how long the app has the connection to itself before the worker starts its precache: the
 * landing screen's code, the login call and the map's first picture come first (field-app spec 9: vehicles
 * within 3 s of login on 3G). The precache is megabytes, which a phone on 3G takes many seconds to fetch.
 */
export const SERVICE_WORKER_DELAY_MS = 5000;

/**
 * Registers the field app's service worker (built by vite-plugin-pwa into /m/sw.js, scope /m/): it keeps the
 * app's shell and code on the phone, so the app installs on the home screen and opens without a connection.
 * Registered once a user is logged in and the page has loaded, a few seconds later: on a first visit its
 * precache would otherwise share a slow connection with the login screen and the first map. The login screen
 * alone is no use offline (the session is needed), so nothing is lost before. Not in development (Vite serves
 * no worker) and not where the browser has none.
 */
export function registerServiceWorker(): void {
  if (import.meta.env.DEV || !('serviceWorker' in navigator)) return;
  const register = () => void navigator.serviceWorker.register(`${MOBILE_BASE}/sw.js`, { scope: `${MOBILE_BASE}/` }).catch(() => undefined);
  const loaded = new Promise<void>((resolve) => {
    if (document.readyState === 'complete') resolve();
    else window.addEventListener('load', () => resolve(), { once: true });
  });
  const loggedIn = new Promise<void>((resolve) => {
    if (getSession().token) return resolve();
    const stop = subscribeSession(() => {
      if (!getSession().token) return;
      stop();
      resolve();
    });
  });
  void Promise.all([loaded, loggedIn]).then(() => setTimeout(register, SERVICE_WORKER_DELAY_MS));
}
