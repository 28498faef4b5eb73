import { useEffect } from 'react';
import L from 'leaflet';
import { useMap } from 'react-leaflet';
import type { LatLon } from '../wkt';
import { useLatest } from './useLatest';

export interface MapStop {
  id: number;
  name: string;
  at: LatLon;
}

/** Render-less: stops as small grey points. The map container carries data-stop-count. */
export function StopsLayer({ stops, onStopClick }: { stops: readonly MapStop[]; onStopClick?: (stop: MapStop) => void }) {
  const map = useMap();
  const handlers = useLatest({ onStopClick });
  useEffect(() => {
    const group = L.layerGroup();
    for (const stop of stops) {
      L.circleMarker(stop.at, { radius: 4, color: '#546e7a', weight: 1.5, fillColor: '#ffffff', fillOpacity: 1 })
        .on('click', () => handlers.current.onStopClick?.(stop))
        .addTo(group);
    }
    group.addTo(map);
    const container = map.getContainer();
    container.dataset.stopCount = String(stops.length);
    return () => {
      group.remove();
      delete container.dataset.stopCount;
    };
  }, [map, stops, handlers]);
  return null;
}
