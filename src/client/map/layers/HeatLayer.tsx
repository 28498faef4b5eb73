import { useEffect } from 'react';
import L from 'leaflet';
import { useMap } from 'react-leaflet';

export interface HeatLayerProps {
  /** [lat, lon, weight 0..1] */
  points: readonly (readonly [number, number, number])[];
  radius?: number;
}

/** leaflet.heat is a classic script extending the global L: it loads once, after L is global. */
let heatLoaded: Promise<unknown> | undefined;
function loadHeat(): Promise<unknown> {
  (globalThis as { L?: typeof L }).L ??= L;
  heatLoaded ??= import('leaflet.heat');
  return heatLoaded;
}

/** Render-less: a heat layer (leaflet.heat) of weighted points. The map container carries data-heat-points. */
export function HeatLayer({ points, radius = 18 }: HeatLayerProps) {
  const map = useMap();
  useEffect(() => {
    let layer: L.Layer | undefined;
    let live = true;
    void loadHeat().then(() => {
      if (!live) return;
      layer = L.heatLayer(
        points.map(([lat, lon, w]) => [lat, lon, w] as L.HeatLatLngTuple),
        { radius, blur: 15, max: 1, minOpacity: 0.3 },
      );
      layer.addTo(map);
      map.getContainer().dataset.heatPoints = String(points.length);
      if (points.length)
        map.fitBounds(L.latLngBounds(points.map(([lat, lon]) => [lat, lon] as L.LatLngTuple)), { maxZoom: 14, padding: [20, 20] });
    });
    return () => {
      live = false;
      layer?.remove();
    };
  }, [map, points, radius]);
  return null;
}
