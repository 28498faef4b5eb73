import { useEffect, useState } from 'react';
import type { MapFilters } from '../../../shared/map';
import { mapApi } from '../../../web/map/mapApi';

let cached: Promise<MapFilters> | null = null;

/** GET /api/v1/map/filters once per page: the filter's lists, the search fallback and the replay's vehicles. */
export function loadMapFilters(): Promise<MapFilters> {
  cached ??= mapApi
    .filters({ quiet: true })
    .then((filters) => ({
      vehicles: filters.vehicles ?? [],
      depots: filters.depots ?? [],
      branches: filters.branches ?? [],
      routes: filters.routes ?? [],
    }))
    .catch((error: unknown) => {
      cached = null;
      throw error;
    });
  return cached;
}

export function useMapFilters(): { filters: MapFilters | null; failed: boolean } {
  const [state, setState] = useState<{ filters: MapFilters | null; failed: boolean }>({ filters: null, failed: false });
  useEffect(() => {
    let live = true;
    loadMapFilters().then(
      (filters) => live && setState({ filters, failed: false }),
      () => live && setState({ filters: null, failed: true }),
    );
    return () => {
      live = false;
    };
  }, []);
  return state;
}
