import { useEffect } from 'react';
import L from 'leaflet';
import { useMap } from 'react-leaflet';
import type { BranchAgency } from '../../../shared/map';
import { depotMarkers, type DepotMarker } from './layerContent';
import { useLatest } from './useLatest';

export interface DepotsLayerProps {
  data: BranchAgency;
  /** Departments as coloured points ('depotPoints' layer) instead of enterprises and branches as markers ('depots'). */
  points: boolean;
  onDepotClick?: (marker: DepotMarker) => void;
}

/** Render-less: enterprises and branches as markers, or departments as points in their colour. */
export function DepotsLayer({ data, points, onDepotClick }: DepotsLayerProps) {
  const map = useMap();
  const handlers = useLatest({ onDepotClick });
  useEffect(() => {
    const group = L.layerGroup();
    for (const marker of depotMarkers(data, points)) {
      const { kind, depot, at } = marker;
      const shape =
        kind === 'department'
          ? L.circleMarker(at, {
              radius: 7,
              color: '#ffffff',
              weight: 2,
              fillColor: 'color' in depot && depot.color ? depot.color : '#6d4c41',
              fillOpacity: 0.95,
            })
          : L.marker(at, { title: depot.title, alt: depot.title, opacity: kind === 'agency' ? 1 : 0.9 });
      shape.on('click', () => handlers.current.onDepotClick?.(marker)).addTo(group);
    }
    group.addTo(map);
    return () => {
      group.remove();
    };
  }, [map, data, points, handlers]);
  return null;
}
