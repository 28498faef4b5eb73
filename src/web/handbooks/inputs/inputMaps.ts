import type { PathOptions } from 'leaflet';
import { PRIMARY_COLOR } from '../../../shared/constants';

/** How a handbook's polygon or line is drawn in the preview and the editor. */
export const SHAPE_STYLE: PathOptions = { color: PRIMARY_COLOR, weight: 3, fillOpacity: 0.15 };
