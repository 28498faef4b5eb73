/**
 * Address search of the field app's map (field-app spec 2.3 and 9): the contract between the phone and the
 * server's geocoder (src/server/geocoder), answered by the product's own streets, houses, stops and
 * organisation addresses, or by an external Nominatim-compatible geocoder when one is configured.
 */

/** Spec section 9: the search waits this long after the last keystroke, and shows this many results. */
export const ADDRESS_SEARCH = { debounceMs: 1000, limit: 5 } as const;
/** The longest query the server takes (the city prefix included). */
export const ADDRESS_QUERY_MAX = 200;

export type GeocoderEngine = 'own' | 'external';

/** GET /api/v1/geocoder/settings */
export interface GeocoderSettings {
  /** The city name the phone puts before each query ("Санкт-Петербург, Невский 12"). */
  city: string;
  engine: GeocoderEngine;
}

export type GeocoderKind = 'house' | 'street' | 'stop' | 'organisation' | 'place';

export interface GeocoderItem {
  label: string;
  kind: GeocoderKind;
  lat: number;
  lon: number;
}

/** GET /api/v1/geocoder/search?q=&limit= ; `fallback`: the external geocoder failed and the own one answered. */
export interface GeocoderAnswer {
  engine: GeocoderEngine;
  fallback?: boolean;
  items: GeocoderItem[];
}

/** The query the phone sends: the city name first, unless the user already wrote it. */
export function addressQuery(city: string, text: string): string {
  const typed = text.trim().replace(/\s+/g, ' ');
  if (!typed) return '';
  const name = city.trim();
  if (!name || typed.toLowerCase().startsWith(name.toLowerCase())) return typed.slice(0, ADDRESS_QUERY_MAX);
  return `${name}, ${typed}`.slice(0, ADDRESS_QUERY_MAX);
}
