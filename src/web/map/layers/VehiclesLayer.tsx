import { useEffect, useMemo } from 'react';
import type L from 'leaflet';
import { useMap } from 'react-leaflet';
import { GROUP_CLICK_ZOOM_STEP, type MapCluster } from '../../../shared/map';
import { VehicleCanvasLayer } from '../MapVehicleCanvas';
import { vehicleTotal } from '../vehicleSnapshot';
import { useLatest } from './useLatest';

export interface VehiclesLayerProps {
  /** Vehicles and groups to draw (the same array again draws nothing new). */
  items: readonly MapCluster[];
  /** Time of the picture, shown on the container as data-last-update. */
  time?: string;
  onItemClick?: (item: MapCluster, map: L.Map) => void;
  /** Vehicles drawn with a ring round them (the field app's near the user). */
  ringed?: (vehicle: MapCluster) => boolean;
  /** A colour mode over the class colours (null: the class colour); the container carries data-colour-mode. */
  colourOf?: ((vehicle: MapCluster) => string | null) | null;
  colourMode?: string;
}

/** What a click on a group does on every map: zoom in by two around it. */
export function zoomIntoGroup(map: L.Map, group: MapCluster): void {
  map.setView(group.center, Math.min(map.getZoom() + GROUP_CLICK_ZOOM_STEP, map.getMaxZoom()));
}

/**
 * Render-less: vehicles and groups on the vehicle canvas, above the other layers. The map container carries
 * data-vehicle-count (vehicles drawn, groups counted by their members), data-item-count and data-last-update.
 */
export function VehiclesLayer({ items, time, onItemClick, ringed, colourOf, colourMode = 'class' }: VehiclesLayerProps) {
  const map = useMap();
  const handlers = useLatest({ onItemClick });
  const layer = useMemo(
    () => new VehicleCanvasLayer({ pane: 'vehicles', onItemClick: (item) => handlers.current.onItemClick?.(item, map) }),
    [map, handlers],
  );

  useEffect(() => {
    if (!map.getPane('vehicles')) map.createPane('vehicles').style.zIndex = '450';
    layer.addTo(map);
    const container = map.getContainer();
    return () => {
      layer.remove();
      delete container.dataset.vehicleCount;
      delete container.dataset.itemCount;
    };
  }, [map, layer]);

  useEffect(() => {
    layer.setItems(items);
    const container = map.getContainer();
    container.dataset.vehicleCount = String(vehicleTotal(items));
    container.dataset.itemCount = String(items.length);
  }, [map, layer, items]);

  useEffect(() => layer.setRinged(ringed ?? null), [layer, ringed]);

  useEffect(() => {
    layer.setColourOf(colourOf ?? null);
    map.getContainer().dataset.colourMode = colourMode;
  }, [map, layer, colourOf, colourMode]);

  useEffect(() => {
    if (time) map.getContainer().dataset.lastUpdate = time;
  }, [map, time]);

  return null;
}
