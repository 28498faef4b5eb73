import { useEffect, useRef, useState, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import L from 'leaflet';
import { useMap } from 'react-leaflet';
import type { LatLon } from '../../../web/map/wkt';
import { useLatest } from '../../../web/map/layers/useLatest';

export interface PopupLayerProps {
  /** The popup opens anew whenever this changes (by identity); null: no popup. */
  openKey: object | string | null;
  /** Where it stands; a change moves the open popup (a vehicle followed by its popup). */
  at: LatLon | null;
  /** The user closed it (the close button, Escape, a click on the map). */
  onClose: () => void;
  testId?: string;
  className?: string;
  children?: ReactNode;
}

/**
 * Render-less: one Leaflet popup whose content React renders into it, so it can move with what it shows
 * without reopening. Once the user has dragged the map, following no longer pans the map back.
 */
export function PopupLayer({ openKey, at, onClose, testId, className, children }: PopupLayerProps) {
  const map = useMap();
  const handlers = useLatest({ onClose });
  const [container] = useState(() => {
    const div = document.createElement('div');
    if (testId) div.dataset.testid = testId;
    return div;
  });
  const popup = useRef<L.Popup | null>(null);
  const dragged = useRef(false);
  const start = useLatest(at);

  useEffect(() => {
    const position = start.current;
    if (openKey === null || !position) return;
    const instance = L.popup({ minWidth: 240, maxWidth: 340, autoPan: true, className }).setLatLng(position).setContent(container);
    const close = () => handlers.current.onClose();
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
  }, [map, openKey, container, className, handlers, start]);

  const lat = at?.[0];
  const lon = at?.[1];
  useEffect(() => {
    const instance = popup.current;
    if (lat === undefined || lon === undefined || !instance) return;
    // following keeps the popup in view, unless the user has moved the map away
    const { autoPan } = instance.options;
    instance.options.autoPan = autoPan && !dragged.current;
    instance.setLatLng([lat, lon]);
    instance.options.autoPan = autoPan;
  }, [lat, lon]);

  return openKey !== null ? createPortal(children, container) : null;
}
