import { HANDBOOKS } from '../../../schemas/index';
import type { Row } from '../../shared/handbooks/validation';
import { useCurrentUser, useSwitches } from '../../web/stores/sessionStore';
import { mayReadHandbook } from './fieldHandbooks';
import { useHandbookPage } from './useHandbookPage';

/** Variants of one route read at most (a route has a handful). */
const VARIANTS_MAX = 100;
const TRIPS_MAX = 200;

/**
 * A route's trips (field-app spec 2.6): its variants, then their trips with trajectories, through the generic
 * query. Nothing is asked when the user may not read variants or trips.
 */
export function useRouteTrips(routeId: unknown): { trips: Row[]; loading: boolean; readable: boolean } {
  const user = useCurrentUser();
  const switches = useSwitches();
  const readable = routeId !== undefined && mayReadHandbook(user, switches, 'routevariants') && mayReadHandbook(user, switches, 'trips');
  const variants = useHandbookPage(
    readable
      ? {
          schema: HANDBOOKS.routevariants.table.schema,
          table: HANDBOOKS.routevariants.table.name,
          fields: ['id'],
          filters: { route_id: [routeId as number] },
          limit: VARIANTS_MAX,
        }
      : null,
  );
  const ids = variants.page?.list.map((row) => row.id as number) ?? [];
  const trips = useHandbookPage(
    readable && ids.length
      ? {
          schema: HANDBOOKS.trips.table.schema,
          table: HANDBOOKS.trips.table.name,
          fields: ['id', 'MarshVariant_id', 'race_type', 'trajectory'],
          filters: { MarshVariant_id: ids },
          sort: { field: 'id', order: 'ASC' },
          limit: TRIPS_MAX,
        }
      : null,
  );
  return { trips: trips.page?.list ?? [], loading: variants.loading || trips.loading, readable };
}
