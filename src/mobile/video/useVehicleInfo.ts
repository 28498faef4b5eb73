import type { OnlineVehicle } from '../../shared/map';
import { mayAccess } from '../../shared/routeAccess';
import { mapApi } from '../../web/map/mapApi';
import { useApiQuery } from '../../web/providers/queries';
import { useCurrentUser, useSwitches } from '../../web/stores/sessionStore';

/**
 * The vehicle's details for the info panel: "Vehicle (online)" of field-app spec 3 (GET /api/v1/map/online/{id}),
 * type, model, plate, garage number, route, driver and branch. Read only when the user may read the map, and
 * quietly: otherwise, or when the read fails, the panel shows what the video API gives (model, plate, garage number).
 */
export function useVehicleInfo(vehicleId: number | undefined): OnlineVehicle | null {
  const user = useCurrentUser();
  const switches = useSwitches();
  const asked = !!vehicleId && mayAccess(user, switches, '/map/currentData', 'read');
  const { data } = useApiQuery(['map', 'online', vehicleId], (signal) => mapApi.online(vehicleId!, { signal, quiet: true }), {
    enabled: asked,
  });
  return (asked && data) || null;
}
