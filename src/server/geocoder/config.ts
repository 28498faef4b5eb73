import { group, number, text, type Environment } from '../configuration/variables';

/** Settings of the geocoder, read from the environment by the area itself. */
export interface GeocoderConfig {
  /** GEOCODER_CITY: the operator's city, put before the phone's queries (default Санкт-Петербург, the demo's city). */
  city: string;
  /** GEOCODER_URL: base URL of a Nominatim-compatible geocoder (…/search?format=jsonv2); unset = the own geocoder only. */
  externalUrl: string | null;
  /** GEOCODER_TIMEOUT_MS: how long the external geocoder may take before the own one answers instead. */
  timeoutMs: number;
}

export const geocoderVariables = group('Geocoder', {
  externalUrl: text('GEOCODER_URL', {
    meaning:
      "a Nominatim-compatible geocoder (`…/search?format=jsonv2`, e.g. `https://nominatim.openstreetmap.org` or an own Nominatim) for the field map's address search; unset = the product's own geocoder only (works with no internet)",
  }),
  city: text('GEOCODER_CITY', { default: 'Санкт-Петербург', meaning: 'the city put before every address query' }),
  timeoutMs: number('GEOCODER_TIMEOUT_MS', {
    default: 5000,
    positive: true,
    unit: 'ms',
    meaning: 'how long the external geocoder may take before the own one answers instead',
  }),
});

export function geocoderConfig(env: Environment = process.env): GeocoderConfig {
  const v = geocoderVariables.read(env);
  return { city: v.city, externalUrl: v.externalUrl?.replace(/\/+$/, '') ?? null, timeoutMs: v.timeoutMs };
}
