import L from 'leaflet';

let geoman: Promise<unknown> | undefined;

/**
 * leaflet-geoman is a script that extends the global `L` and hooks into every map created afterwards: make
 * sure the global is Leaflet's, load it once, and only then create a map that edits shapes.
 */
export function loadGeoman(): Promise<unknown> {
  const global = window as unknown as { L?: typeof L };
  if (!global.L) global.L = L;
  geoman ??= import('@geoman-io/leaflet-geoman-free').then(() => import('@geoman-io/leaflet-geoman-free/dist/leaflet-geoman.css'));
  return geoman;
}
