/**
 * Navigation from outside React (the http client after a 401, 403 or no response): the router's navigate
 * function, registered by <NavigationBridge> inside the router. Before it is registered (very early
 * errors) the browser location is replaced instead. Paths are the router's own; a front end served under
 * a prefix (the field app under /m) sets it with setBasePath, so that the fallback and the "already
 * there" check see the browser's full path.
 */
type Navigate = (path: string, options?: { replace?: boolean }) => void;

let navigator: Navigate | null = null;
let basePath = '';

export function setNavigator(navigate: Navigate | null): void {
  navigator = navigate;
}

/** The prefix the router runs under ('' for the console, '/m' for the field app). */
export function setBasePath(base: string): void {
  basePath = base.replace(/\/+$/, '');
}

/** A router path as the browser sees it: '/no-connection' under '/m' is '/m/no-connection', '/' is '/m/'. */
export function browserPath(path: string): string {
  return `${basePath}${path}`;
}

function samePath(a: string, b: string): boolean {
  const trim = (p: string) => p.replace(/\/+$/, '') || '/';
  return trim(a) === trim(b);
}

export function navigateTo(path: string, options: { replace?: boolean } = {}): void {
  if (samePath(window.location.pathname, browserPath(path))) return;
  if (navigator) navigator(path, options);
  else window.location.assign(browserPath(path));
}
