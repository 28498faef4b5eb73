import { useEffect } from 'react';
import L from 'leaflet';
import { useMap } from 'react-leaflet';
import type { IncidentEvent } from '../../../shared/map';
import { positioned } from './layerContent';
import { useLatest } from './useLatest';

export interface IncidentsLayerProps {
  incidents: readonly IncidentEvent[];
  /** The colour of an incident type (the types' legend). */
  colourOf: (type: number) => string;
  onIncidentClick?: (incident: IncidentEvent) => void;
}

/** Render-less: driver-assistance incidents as points coloured by type. The map container carries data-incident-count. */
export function IncidentsLayer({ incidents, colourOf, onIncidentClick }: IncidentsLayerProps) {
  const map = useMap();
  const handlers = useLatest({ onIncidentClick });
  useEffect(() => {
    const group = L.layerGroup();
    const shown = positioned(incidents);
    for (const incident of shown) {
      L.circleMarker([incident.lat, incident.lon], {
        radius: 5,
        color: '#ffffff',
        weight: 1,
        fillColor: colourOf(incident.incident_type),
        fillOpacity: 0.9,
      })
        .on('click', () => handlers.current.onIncidentClick?.(incident))
        .addTo(group);
    }
    group.addTo(map);
    const container = map.getContainer();
    container.dataset.incidentCount = String(shown.length);
    return () => {
      group.remove();
      delete container.dataset.incidentCount;
    };
  }, [map, incidents, colourOf, handlers]);
  return null;
}
