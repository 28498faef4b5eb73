import { useEffect, useMemo, useRef, useState } from 'react';
import { mapApi } from '../../web/map/mapApi';
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
 * NEAR_STOPS_RELOAD_METRES; `stops` is null until the first answer, `failed` when the read failed.
 */
export function useNearStops(user: [number, number] | null): { stops: NearStop[] | null; failed: boolean } {
  const [around, setAround] = useState<Omit<NearStop, 'distance'>[] | null>(null);
  const [failed, setFailed] = useState(false);
  const readAt = useRef<[number, number] | null>(null);
  const lat = user?.[0];
  const lon = user?.[1];
  useEffect(() => {
    if (lat === undefined || lon === undefined) return undefined;
    const at: [number, number] = [lat, lon];
    if (readAt.current && distanceMetres(readAt.current, at) < NEAR_STOPS_RELOAD_METRES) return undefined;
    const controller = new AbortController();
    mapApi.stops(boxAround(at, NEAR_STOPS_METRES + NEAR_STOPS_RELOAD_METRES), { signal: controller.signal, quiet: true }).then(
      (list) => {
        readAt.current = at;
        setFailed(false);
        setAround(
          list.filter(
            (s): s is Omit<NearStop, 'distance'> => typeof s.lat === 'number' && typeof s.lon === 'number' && typeof s.name === 'string',
          ),
        );
      },
      () => !controller.signal.aborted && setFailed(true),
    );
    return () => controller.abort();
  }, [lat, lon]);
  const stops = useMemo(
    () => (around && lat !== undefined && lon !== undefined ? nearestStops(around, [lat, lon]) : null),
    [around, lat, lon],
  );
  return { stops, failed };
}
