/** Settings of the geocoder, read from the environment by the area itself. */
export interface GeocoderConfig {
  /** GEOCODER_CITY: the operator's city, put before the phone's queries (default Санкт-Петербург, the demo's city). */
  city: string;
  /** GEOCODER_URL: base URL of a Nominatim-compatible geocoder (…/search?format=jsonv2); unset = the own geocoder only. */
  externalUrl: string | null;
  /** GEOCODER_TIMEOUT_MS: how long the external geocoder may take before the own one answers instead. */
  timeoutMs: number;
}

export function geocoderConfig(env: NodeJS.ProcessEnv = process.env): GeocoderConfig {
  const timeout = Number(env.GEOCODER_TIMEOUT_MS);
  const url = env.GEOCODER_URL?.trim();
  return {
    city: env.GEOCODER_CITY?.trim() || 'Санкт-Петербург',
    externalUrl: url ? url.replace(/\/+$/, '') : null,
    timeoutMs: Number.isFinite(timeout) && timeout > 0 ? timeout : 5000,
  };
}
