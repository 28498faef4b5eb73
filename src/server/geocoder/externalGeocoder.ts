import type { GeocoderItem, GeocoderKind } from '../../shared/geocoder';

interface NominatimPlace {
  display_name?: unknown;
  lat?: unknown;
  lon?: unknown;
  category?: unknown;
  class?: unknown;
  type?: unknown;
}

function kindOf(place: NominatimPlace): GeocoderKind {
  const category = String(place.category ?? place.class ?? '');
  const type = String(place.type ?? '');
  if (category === 'building' || type === 'house') return 'house';
  if (category === 'highway' && type === 'bus_stop') return 'stop';
  if (category === 'highway') return 'street';
  return 'place';
}

/**
 * A Nominatim-compatible geocoder (GET {base}/search?format=jsonv2): limited to Russia (countrycodes=ru), in
 * Russian. Throws on a network failure, a time-out, or an answer that is not a list of places.
 */
export async function externalGeocode(base: string, query: string, limit: number, timeoutMs: number): Promise<GeocoderItem[]> {
  const params = new URLSearchParams({
    q: query,
    format: 'jsonv2',
    limit: String(limit),
    countrycodes: 'ru',
    'accept-language': 'ru',
    addressdetails: '0',
  });
  const response = await fetch(`${base}/search?${params}`, {
    signal: AbortSignal.timeout(timeoutMs),
    headers: { accept: 'application/json', 'user-agent': 'transport-console-geocoder/1.0' },
  });
  if (!response.ok) throw new Error(`geocoder answered ${response.status}`);
  const body = (await response.json()) as unknown;
  if (!Array.isArray(body)) throw new Error('geocoder answer is not a list');
  return (body as NominatimPlace[])
    .flatMap((place): GeocoderItem[] => {
      const lat = Number(place.lat);
      const lon = Number(place.lon);
      const label = typeof place.display_name === 'string' ? place.display_name : '';
      if (!label || !Number.isFinite(lat) || !Number.isFinite(lon) || Math.abs(lat) > 90 || Math.abs(lon) > 180) return [];
      return [{ label: label.slice(0, 300), kind: kindOf(place), lat, lon }];
    })
    .slice(0, limit);
}
