import { MOBILE_BASE } from '../constants';

/**
 * Registers the field app's service worker (built by vite-plugin-pwa into /m/sw.js, scope /m/): it keeps the
 * app's shell and code on the phone, so the app installs on the home screen and opens without a connection.
 * Not in development (Vite serves no worker) and not where the browser has none.
 */
export function registerServiceWorker(): void {
  if (import.meta.env.DEV || !('serviceWorker' in navigator)) return;
  const register = () => void navigator.serviceWorker.register(`${MOBILE_BASE}/sw.js`, { scope: `${MOBILE_BASE}/` }).catch(() => undefined);
  if (document.readyState === 'complete') register();
  else window.addEventListener('load', register, { once: true });
}
