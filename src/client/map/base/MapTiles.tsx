import { TileLayer } from 'react-leaflet';
import { useT } from '../../i18n/translate';
import { MAP_ZOOM } from './baseMapOptions';

/** A transparent pixel: where the server has no tile (404 without a tile source) the light background shows. */
export const EMPTY_TILE = 'data:image/gif;base64,R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7';

/** The product's own tiles (/tile/{z}/{x}/{y}.png); nothing from a public server. */
export function MapTiles() {
  const t = useT();
  return <TileLayer url="/tile/{z}/{x}/{y}.png" errorTileUrl={EMPTY_TILE} attribution={t('mapView.attribution')} maxZoom={MAP_ZOOM.max} />;
}
