import { TileLayer } from 'react-leaflet';
import { useCurrentUser } from '../../stores/sessionStore';
import { useT } from '../../i18n/translate';
import { MAP_ZOOM } from './baseMapOptions';

/** A transparent pixel: where the server has no tile (404 without a tile source) the light background shows. */
export const EMPTY_TILE = 'data:image/gif;base64,R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7';

/** Leaflet writes an attribution as HTML: the administrator's text is shown as text. */
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * The product's own tiles (/tile/{z}/{x}/{y}.png, the base map of the navigation settings); nothing from a public
 * server. Without a base map no tile is asked for and a note says where an administrator sets one. The source's
 * revision is in the tile address, so a changed source is never hidden by the browser's cache of the old one.
 */
export function MapTiles() {
  const t = useT();
  const baseMap = useCurrentUser()?.settings.baseMap;
  if (!baseMap || baseMap.kind === 'none') {
    return (
      <div className="base-map-note" data-testid="base-map-note">
        {t('mapView.noBaseMap')}
      </div>
    );
  }
  return (
    <TileLayer
      key={baseMap.revision}
      url={`/tile/{z}/{x}/{y}.png?v=${baseMap.revision}`}
      errorTileUrl={EMPTY_TILE}
      attribution={baseMap.attribution ? escapeHtml(baseMap.attribution) : undefined}
      maxZoom={MAP_ZOOM.max}
    />
  );
}
