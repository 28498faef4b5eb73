import { useEffect, useMemo } from 'react';
import L from 'leaflet';
import { useMap } from 'react-leaflet';
import { PRIMARY_COLOR } from '../../../shared/constants';
import { positionAt, type Track } from '../replay/replayMath';

function arrowIcon(course: number): L.DivIcon {
  return L.divIcon({
    className: 'map-replay-marker',
    iconSize: [28, 28],
    iconAnchor: [14, 14],
    html:
      `<svg width="28" height="28" viewBox="0 0 28 28" style="transform: rotate(${Math.round(course)}deg)">` +
      `<circle cx="14" cy="14" r="9" fill="${PRIMARY_COLOR}" stroke="#fff" stroke-width="2"/>` +
      '<path d="M14 6 L18.5 16 L14 13.5 L9.5 16 Z" fill="#fff"/></svg>',
  });
}

/**
 * Render-less: a vehicle's track as a line, fitted into view when it changes, and a marker where the vehicle
 * was at `time` (epoch ms). The map container carries data-track-points.
 */
export function TrackLayer({ track, time }: { track: Track | null; time: number }) {
  const map = useMap();
  const marker = useMemo(() => L.marker([0, 0], { interactive: false, keyboard: false, zIndexOffset: 1000 }), []);

  useEffect(() => {
    if (!track) return;
    const line = L.polyline(
      track.points.map((p): [number, number] => [p.lat, p.lon]),
      { color: PRIMARY_COLOR, weight: 4, opacity: 0.75, interactive: false },
    );
    line.addTo(map);
    marker.addTo(map);
    const bounds = line.getBounds();
    if (bounds.isValid()) map.fitBounds(bounds, { padding: [60, 60], maxZoom: 16 });
    map.getContainer().dataset.trackPoints = String(track.points.length);
    return () => {
      line.remove();
      marker.remove();
      delete map.getContainer().dataset.trackPoints;
    };
  }, [map, track, marker]);

  const position = track ? positionAt(track, time) : null;
  const lat = position?.lat;
  const lon = position?.lon;
  const course = position ? Math.round(position.course / 5) * 5 : 0;
  useEffect(() => {
    if (lat !== undefined && lon !== undefined) marker.setLatLng([lat, lon]);
  }, [marker, lat, lon]);
  useEffect(() => {
    marker.setIcon(arrowIcon(course));
  }, [marker, course]);

  return null;
}
