/**
 * The base map under every map of both front ends: where its tiles come from (navigation settings, the
 * TILE_SOURCE environment variable being the initial value) and the credit it must show.
 */
export const BASE_MAP_KINDS = ['none', 'upstream', 'mbtiles', 'dir'] as const;
export type BaseMapKind = (typeof BASE_MAP_KINDS)[number];

/** As an administrator sets it. `location`: the URL template, the MBTiles file or the z/x/y folder. */
export interface BaseMapSettings {
  kind: BaseMapKind;
  location: string;
  /** Plain text shown in the map's corner (the tiles' licence usually asks for it). */
  attribution: string;
}

/**
 * What every user's maps receive: whether tiles exist, their credit, and a revision that changes with the source
 * (the tile addresses carry it, so a browser never shows tiles of the previous source from its cache). The
 * location stays on the server: an upstream address may carry an access key.
 */
export interface PublicBaseMap {
  kind: BaseMapKind;
  attribution: string;
  revision: string;
}

export const NO_BASE_MAP: BaseMapSettings = { kind: 'none', location: '', attribution: '' };

/** The attribution the product showed with TILE_SOURCE before an administrator gave one. */
export const OSM_ATTRIBUTION = 'Картографические данные © участники OpenStreetMap';

/** An upstream tile server's address: http(s), with the {z}, {x} and {y} the server fills in. */
export function isTileUrlTemplate(text: string): boolean {
  return /^https?:\/\/[^\s/]+\S*$/.test(text) && ['{z}', '{x}', '{y}'].every((part) => text.includes(part));
}

/**
 * TILE_SOURCE's value as settings: 'mbtiles:/file', 'dir:/folder' or an upstream URL template; anything else
 * (unset included) is no base map (the server logs a value it cannot read when it starts).
 */
export function baseMapFromTileSource(source: string | undefined, attribution: string | undefined): BaseMapSettings {
  const text = source?.trim() ?? '';
  if (!text) return NO_BASE_MAP;
  const credit = attribution ?? OSM_ATTRIBUTION;
  if (text.startsWith('mbtiles:')) return { kind: 'mbtiles', location: text.slice('mbtiles:'.length), attribution: credit };
  if (text.startsWith('dir:')) return { kind: 'dir', location: text.slice('dir:'.length), attribution: credit };
  if (isTileUrlTemplate(text)) return { kind: 'upstream', location: text, attribution: credit };
  return NO_BASE_MAP;
}
