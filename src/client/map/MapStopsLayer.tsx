import { useEffect } from 'react';
import L from 'leaflet';
import { useMap } from 'react-leaflet';
import { STOPS_MINIMISED_MAX_ZOOM } from '../../shared/map';
import { mapApi } from './mapApi';
import { layerErrors, select } from './mapState';
import { useDebouncedLoad } from './useDebouncedLoad';
import { useViewport } from './useViewport';
import { parseWktPoint } from './wkt';

/**
 * Render-less: the stops in view (GET /api/v1/map/stops?bbox=) when zoomed in past the minimised zoom;
 * at zoom 12 or lower only the drawn routes' first and last stops show (the routes layer draws those).
 */
export function MapStopsLayer() {
  const map = useMap();
  const { bbox, zoom } = useViewport(map, 0.2);
  const key = zoom > STOPS_MINIMISED_MAX_ZOOM ? bbox.map((v) => v.toFixed(4)).join(',') : null;
  const { data, error } = useDebouncedLoad(key, (signal) => mapApi.stops(bbox, { signal, quiet: true }));

  useEffect(() => layerErrors.set((e) => ({ ...e, stops: error })), [error]);
  useEffect(() => () => layerErrors.set((e) => ({ ...e, stops: false })), []);

  useEffect(() => {
    if (!data) return;
    const group = L.layerGroup();
    for (const stop of data) {
      const at: [number, number] | null = typeof stop.lat === 'number' && typeof stop.lon === 'number' ? [stop.lat, stop.lon] : parseWktPoint(stop.geo);
      if (!at) continue;
      L.circleMarker(at, { radius: 4, color: '#546e7a', weight: 1.5, fillColor: '#ffffff', fillOpacity: 1 })
        .on('click', () => select({ kind: 'stop', id: stop.id, at, name: stop.name ?? '' }))
        .addTo(group);
    }
    group.addTo(map);
    map.getContainer().dataset.stopCount = String(group.getLayers().length);
    return () => {
      group.remove();
      delete map.getContainer().dataset.stopCount;
    };
  }, [map, data]);

  return null;
}
