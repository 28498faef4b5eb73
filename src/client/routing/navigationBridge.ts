/**
 * Navigation from outside React (the http client after a 401, 403 or no response): the router's navigate
 * function, registered by <NavigationBridge> inside the router. Before it is registered (very early
 * errors) the browser location is replaced instead.
 */
type Navigate = (path: string, options?: { replace?: boolean }) => void;

let navigator: Navigate | null = null;

export function setNavigator(navigate: Navigate | null): void {
  navigator = navigate;
}

export function navigateTo(path: string, options: { replace?: boolean } = {}): void {
  if (window.location.pathname === path) return;
  if (navigator) navigator(path, options);
  else window.location.assign(path);
}
