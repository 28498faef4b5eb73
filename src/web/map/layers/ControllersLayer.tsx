import { useEffect } from 'react';
import L from 'leaflet';
import { useMap } from 'react-leaflet';
import type { ControllerPosition } from '../../../shared/bc/tasks';
import { formatDateTime } from '../../../shared/format';
import { textLabel } from './textLabel';
import { useLatest } from './useLatest';

export interface ControllersLayerProps {
  controllers: readonly ControllerPosition[];
  onControllerClick?: (controller: ControllerPosition) => void;
}

/** Render-less: controllers' last reported positions as labelled points. The container carries data-controller-count. */
export function ControllersLayer({ controllers, onControllerClick }: ControllersLayerProps) {
  const map = useMap();
  const handlers = useLatest({ onControllerClick });
  useEffect(() => {
    const group = L.layerGroup();
    for (const controller of controllers) {
      L.circleMarker([controller.lat, controller.lon], {
        radius: 8,
        color: '#ffffff',
        weight: 2,
        fillColor: '#6a1b9a',
        fillOpacity: 1,
        className: 'controller-position',
      })
        .bindTooltip(textLabel(`${controller.fio}, ${formatDateTime(controller.at)}`))
        .on('click', () => handlers.current.onControllerClick?.(controller))
        .addTo(group);
    }
    group.addTo(map);
    map.getContainer().dataset.controllerCount = String(controllers.length);
    return () => {
      group.remove();
    };
  }, [map, controllers, handlers]);
  return null;
}
