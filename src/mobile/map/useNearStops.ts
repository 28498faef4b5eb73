import { useMemo, useState } from 'react';
import { mapApi } from '../../web/map/mapApi';
import { useApiQuery } from '../../web/providers/queries';
import { distanceMetres } from './nearVehicles';
import { boxAround, nearestStops, NEAR_STOPS_METRES, NEAR_STOPS_RELOAD_METRES } from './nearStops';

export interface NearStop {
  id: number;
  name: string;
  lat: number;
  lon: number;
  distance: number;
}

/**
 * The stops nearest the user, nearest first with their distance from where the phone is. The stops around it
 * (GET /api/v1/map/stops, a box wider by the reload distance) are read again once the phone has moved
 * NEAR_STOPS_RELOAD_METRES; `stops` is null until an answer and after a failed read, `failed` when the last read failed.
 */
export function useNearStops(user: [number, number] | null): { stops: NearStop[] | null; failed: boolean } {
  const lat = user?.[0];
  const lon = user?.[1];
  // where the stops around were asked for; after a failed read, wherever the phone is next
  const [readAt, setReadAt] = useState<[number, number] | null>(null);
  const query = useApiQuery(
    ['map', 'near-stops', readAt],
    async (signal) =>
      (await mapApi.stops(boxAround(readAt!, NEAR_STOPS_METRES + NEAR_STOPS_RELOAD_METRES), { signal, quiet: true })).filter(
        (s): s is Omit<NearStop, 'distance'> => typeof s.lat === 'number' && typeof s.lon === 'number' && typeof s.name === 'string',
      ),
    { enabled: readAt !== null, keepPrevious: true },
  );
  if (lat !== undefined && lon !== undefined) {
    const away =
      readAt === null ||
      (query.isError ? readAt[0] !== lat || readAt[1] !== lon : distanceMetres(readAt, [lat, lon]) >= NEAR_STOPS_RELOAD_METRES);
    if (away) setReadAt([lat, lon]);
  }
  const around = query.data;
  const stops = useMemo(
    () => (around && lat !== undefined && lon !== undefined ? nearestStops(around, [lat, lon]) : null),
    [around, lat, lon],
  );
  return { stops, failed: query.isError };
}
