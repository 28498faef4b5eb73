import { useEffect, useState } from 'react';
import type { OnlineVehicle } from '../../shared/map';
import { mayAccess } from '../../shared/routeAccess';
import { mapApi } from '../../web/map/mapApi';
import { useCurrentUser, useSwitches } from '../../web/stores/sessionStore';

/**
 * The vehicle's details for the info panel: "Vehicle (online)" of field-app spec 3 (GET /api/v1/map/online/{id}),
 * type, model, plate, garage number, route, driver and branch. Read only when the user may read the map;
 * otherwise the panel shows what the video API gives (model, plate, garage number).
 */
export function useVehicleInfo(vehicleId: number | undefined): OnlineVehicle | null {
  const user = useCurrentUser();
  const switches = useSwitches();
  const mayRead = mayAccess(user, switches, '/map/currentData', 'read');
  const [info, setInfo] = useState<OnlineVehicle | null>(null);
  useEffect(() => {
    setInfo(null);
    if (!vehicleId || !mayRead) return;
    const controller = new AbortController();
    mapApi.online(vehicleId, { signal: controller.signal, quiet: true }).then(
      (found) => !controller.signal.aborted && setInfo(found),
      () => undefined,
    );
    return () => controller.abort();
  }, [vehicleId, mayRead]);
  return info;
}
