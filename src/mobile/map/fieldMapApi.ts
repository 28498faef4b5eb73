import type { GeocoderAnswer, GeocoderSettings } from '../../shared/geocoder';
import type { MapFilters } from '../../shared/map';
import { getJson } from '../../web/providers/httpClient';

/** The field map's own calls (field-app spec 7 Map); the rest are the console map's (src/web/map/mapApi.ts). */
export const fieldMapApi = {
  filters: (signal?: AbortSignal) => getJson<MapFilters>('/api/v1/map/mobile/filters', { signal }),
  geocoderSettings: (signal?: AbortSignal) => getJson<GeocoderSettings>('/api/v1/geocoder/settings', { signal, handleErrors: false }),
  geocode: async (q: string, signal: AbortSignal) =>
    (await getJson<GeocoderAnswer>('/api/v1/geocoder/search', { signal, query: { q }, handleErrors: false })).items,
};
