import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { createPortal } from 'react-dom';
import L from 'leaflet';
import { useMap } from 'react-leaflet';
import { clusterKey } from '../vehicleSnapshot';
import { latestVehicles, select, selection, useSelection, type MapSelection } from '../mapState';
import { MapPopupDepot } from './MapPopupDepot';
import { MapPopupIncident } from './MapPopupIncident';
import { MapPopupRoute } from './MapPopupRoute';
import { MapPopupStop } from './MapPopupStop';
import { MapPopupVehicle } from './MapPopupVehicle';

function Content({ current }: { current: MapSelection }) {
  switch (current.kind) {
    case 'vehicle': return <MapPopupVehicle id={current.id} />;
    case 'stop': return <MapPopupStop id={current.id} name={current.name} at={current.at} />;
    case 'route': return <MapPopupRoute route={current.route} />;
    case 'incident': return <MapPopupIncident incident={current.incident} />;
    default: return <MapPopupDepot kind={current.kind} depot={current.depot} />;
  }
}

/** Where the popup stands: a vehicle's popup follows the vehicle as the stream moves it. */
function usePosition(current: MapSelection | null): [number, number] | null {
  const vehicles = useSyncExternalStore(latestVehicles.subscribe, latestVehicles.get);
  if (!current) return null;
  if (current.kind !== 'vehicle') return current.at;
  return vehicles.get(clusterKey({ type: 'vehicle', id: current.id }))?.center ?? current.at;
}

/**
 * The one details popup (spec: one popup; closing it clears the selection): a Leaflet popup whose content
 * is rendered by React into its container, so it can move with a vehicle without reopening.
 */
export function MapPopup() {
  const map = useMap();
  const current = useSelection();
  const position = usePosition(current);
  const [container] = useState(() => {
    const div = document.createElement('div');
    div.dataset.testid = 'map-popup';
    return div;
  });
  const popup = useRef<L.Popup | null>(null);
  /** The user dragged the map since the popup opened: following the vehicle must not pan it back. */
  const dragged = useRef(false);

  useEffect(() => {
    if (!current) return;
    const instance = L.popup({ minWidth: 240, maxWidth: 340, autoPan: true, className: 'map-details-popup' })
      .setLatLng(current.at)
      .setContent(container);
    const close = () => {
      if (selection.get() === current) select(null);
    };
    instance.on('remove', close);
    dragged.current = false;
    const onDrag = () => {
      dragged.current = true;
    };
    map.on('dragstart', onDrag);
    instance.openOn(map);
    popup.current = instance;
    const observer = new ResizeObserver(() => instance.isOpen() && instance.update());
    observer.observe(container);
    return () => {
      observer.disconnect();
      map.off('dragstart', onDrag);
      instance.off('remove', close);
      instance.remove();
      popup.current = null;
    };
  }, [map, current, container]);

  useEffect(() => {
    const instance = popup.current;
    if (!position || !instance) return;
    // following a vehicle keeps it in view, unless the user has moved the map away
    const { autoPan } = instance.options;
    instance.options.autoPan = autoPan && !dragged.current;
    instance.setLatLng(position);
    instance.options.autoPan = autoPan;
  }, [position]);

  return current ? createPortal(<Content key={`${current.kind}:${current.id}`} current={current} />, container) : null;
}
