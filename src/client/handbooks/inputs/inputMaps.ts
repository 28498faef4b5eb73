import type { Map as LeafletMap, PathOptions } from 'leaflet';
import { PRIMARY_COLOR } from '../../../shared/constants';

/** How a handbook's polygon or line is drawn in the preview and the editor. */
export const SHAPE_STYLE: PathOptions = { color: PRIMARY_COLOR, weight: 3, fillOpacity: 0.15 };

/** A MapContainer ref: the attribution's prefix as on the map screen (a plain link, no flag). */
export function plainAttribution(map: LeafletMap | null): void {
  map?.attributionControl?.setPrefix('<a href="https://leafletjs.com">Leaflet</a>');
}
