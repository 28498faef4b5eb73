import { useEffect, useState } from 'react';
import { flushSync } from 'react-dom';
import type L from 'leaflet';
import { serializeGeoSubscription } from '../../../shared/map';
import type { GeoStreamStatus } from '../geoStreamClient';
import { useGeoStream } from '../useGeoStream';
import { useViewport } from '../useViewport';
import { NO_VEHICLES, VehicleRedrawThrottle, type VehiclePicture } from './vehicleThrottle';

export interface LiveVehicles {
  picture: VehiclePicture;
  status: GeoStreamStatus;
  error: string;
}

/** The live vehicles' region: the view plus this much of its size on each side (moves within it ask nothing). */
export const LIVE_VEHICLES_PADDING = 0.3;

/**
 * The geo stream's vehicles and groups in the map's view (plus a margin), merged and throttled for the
 * vehicle layer. `vehicleIds` is a filter's choice (null: every vehicle; empty: none, so no stream is open).
 */
export function useLiveVehicles(map: L.Map, vehicleIds: readonly number[] | null): LiveVehicles {
  const { bbox, zoom } = useViewport(map, LIVE_VEHICLES_PADDING);
  const [picture, setPicture] = useState<VehiclePicture>(NO_VEHICLES);
  const [throttle] = useState(() => new VehicleRedrawThrottle(setPicture));

  useEffect(() => {
    // a finger's drag holds the pictures until its move ends (the glide after it included): dragend comes
    // before that moveend
    let dragging = false;
    const events: L.LeafletEventHandlerFnMap = {
      move: () => throttle.moved(),
      dragstart: () => {
        dragging = true;
        throttle.hold();
      },
      dragend: () => {
        dragging = false;
      },
      // the held picture is rendered at once, so that the vehicle layer draws it in the same frame as the
      // redraw the move's end may need
      moveend: () => !dragging && throttle.holding && flushSync(() => throttle.release()),
    };
    map.on(events);
    return () => {
      map.off(events);
      throttle.stop();
    };
  }, [map, throttle]);

  const none = vehicleIds !== null && vehicleIds.length === 0;
  const q = none ? null : serializeGeoSubscription({ bounds: bbox, zoom, vehicles: [...(vehicleIds ?? [])] });
  const { status, error } = useGeoStream(q, (time, items) => throttle.push(time, items));

  useEffect(() => {
    if (none) throttle.clear(new Date().toISOString());
  }, [none, throttle]);

  return { picture, status: none ? 'stopped' : status, error };
}
