import type { MapFilters } from '../../../shared/map';
import { mapApi } from '../../../web/map/mapApi';
import { useApiQuery } from '../../../web/providers/queries';

/** GET /api/v1/map/filters once per session: the filter's lists, the search fallback and the replay's vehicles. */
export function useMapFilters(): { filters: MapFilters | null; failed: boolean } {
  const { data, isError } = useApiQuery(
    ['map', 'filters'],
    async (signal): Promise<MapFilters> => {
      const filters = await mapApi.filters({ signal, quiet: true });
      return {
        vehicles: filters.vehicles ?? [],
        depots: filters.depots ?? [],
        branches: filters.branches ?? [],
        routes: filters.routes ?? [],
      };
    },
    { staleTime: Infinity },
  );
  return { filters: data ?? null, failed: isError };
}
