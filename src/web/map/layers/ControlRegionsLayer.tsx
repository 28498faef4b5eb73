import { useEffect, useRef } from 'react';
import L from 'leaflet';
import { useMap } from 'react-leaflet';
import type { MapRegion } from '../../../shared/bc/tasks';
import { textLabel } from './textLabel';
import { useLatest } from './useLatest';

export interface ControlRegionsLayerProps {
  regions: readonly MapRegion[];
  /** Fit the map to the regions once they first arrive (a refresh leaves the user's view alone). */
  fit?: boolean;
  onRegionClick?: (region: MapRegion) => void;
}

/** Render-less: control regions as polygons in their department's colour (ticket control). The container carries data-region-count. */
export function ControlRegionsLayer({ regions, fit = false, onRegionClick }: ControlRegionsLayerProps) {
  const map = useMap();
  const handlers = useLatest({ onRegionClick });
  const fitted = useRef(false);
  useEffect(() => {
    const group = L.featureGroup();
    for (const region of regions) {
      L.geoJSON(region.geojson as GeoJSON.GeoJsonObject, {
        style: { color: region.td_color, weight: 2, fillColor: region.td_color, fillOpacity: 0.12, className: 'control-region' },
      })
        .bindTooltip(textLabel(region.cd_name), { sticky: true })
        .on('click', () => handlers.current.onRegionClick?.(region))
        .addTo(group);
    }
    group.addTo(map);
    map.getContainer().dataset.regionCount = String(regions.length);
    let timer: ReturnType<typeof setTimeout> | undefined;
    if (fit && regions.length && !fitted.current) {
      const bounds = group.getBounds();
      // after the container has its final size (the screen's layout settles in the same frame)
      timer = setTimeout(() => {
        fitted.current = true;
        map.invalidateSize();
        if (bounds.isValid()) map.fitBounds(bounds, { padding: [24, 24], maxZoom: 15 });
      }, 50);
    }
    return () => {
      if (timer) clearTimeout(timer);
      group.remove();
    };
  }, [map, regions, fit, handlers]);
  return null;
}
