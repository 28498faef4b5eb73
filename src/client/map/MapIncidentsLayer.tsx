import { useEffect } from 'react';
import L from 'leaflet';
import { useMap } from 'react-leaflet';
import { mapApi } from './mapApi';
import { layerErrors, select, useIncidentPeriod } from './mapState';
import { useDebouncedLoad } from './useDebouncedLoad';
import { incidentColour, useIncidentTypes } from './useIncidentTypes';
import { useViewport } from './useViewport';

/** Render-less: driver-assistance incidents of the chosen period in view, coloured by incident type. */
export function MapIncidentsLayer() {
  const map = useMap();
  const { bbox } = useViewport(map, 0.2);
  const { from, to } = useIncidentPeriod();
  const types = useIncidentTypes(true);
  const key = `${from}-${to}-${bbox.map((v) => v.toFixed(4)).join(',')}`;
  const { data, error } = useDebouncedLoad(key, (signal) => mapApi.incidents(new Date(from).toISOString(), new Date(to).toISOString(), bbox, { signal, quiet: true }));

  useEffect(() => layerErrors.set((e) => ({ ...e, incidents: error })), [error]);
  useEffect(() => () => layerErrors.set((e) => ({ ...e, incidents: false })), []);

  useEffect(() => {
    if (!data) return;
    const group = L.layerGroup();
    for (const incident of data) {
      if (!Number.isFinite(incident.lat) || !Number.isFinite(incident.lon)) continue;
      const at: [number, number] = [incident.lat, incident.lon];
      L.circleMarker(at, { radius: 5, color: '#ffffff', weight: 1, fillColor: incidentColour(types, incident.incident_type), fillOpacity: 0.9 })
        .on('click', () => select({ kind: 'incident', id: incident.id, at, incident }))
        .addTo(group);
    }
    group.addTo(map);
    map.getContainer().dataset.incidentCount = String(group.getLayers().length);
    return () => {
      group.remove();
      delete map.getContainer().dataset.incidentCount;
    };
  }, [map, data, types]);

  return null;
}
