import { useEffect } from 'react';
import L from 'leaflet';
import { useMap } from 'react-leaflet';
import type { BranchAgency } from '../../shared/map';
import { select, type Depot } from './mapState';

type Kind = 'agency' | 'branch' | 'department';

function at(depot: Depot): [number, number] | null {
  return typeof depot.lat === 'number' && typeof depot.lon === 'number' ? [depot.lat, depot.lon] : null;
}

/**
 * Render-less: enterprises and branches as markers ('depots' layer), or departments as coloured points
 * ('depotPoints' layer), from GET /api/v1/map/branchagency, each opening its details popup.
 */
export function MapDepotsLayer({ data, points }: { data: BranchAgency; points: boolean }) {
  const map = useMap();
  useEffect(() => {
    const group = L.layerGroup();
    const open = (kind: Kind, depot: Depot, position: [number, number]) => () => select({ kind, id: depot.id, at: position, depot });
    if (points) {
      for (const department of data.departments) {
        const position = at(department);
        if (!position) continue;
        L.circleMarker(position, { radius: 7, color: '#ffffff', weight: 2, fillColor: department.color || '#6d4c41', fillOpacity: 0.95 })
          .on('click', open('department', department, position))
          .addTo(group);
      }
    } else {
      const entries: [Kind, Depot][] = [...data.agencies.map((a): [Kind, Depot] => ['agency', a]), ...data.depots.map((d): [Kind, Depot] => ['branch', d])];
      for (const [kind, depot] of entries) {
        const position = at(depot);
        if (!position) continue;
        L.marker(position, { title: depot.title, alt: depot.title, opacity: kind === 'agency' ? 1 : 0.9 })
          .on('click', open(kind, depot, position))
          .addTo(group);
      }
    }
    group.addTo(map);
    return () => {
      group.remove();
    };
  }, [map, data, points]);
  return null;
}
