import { useEffect, useMemo, useRef } from 'react';
import { useMap } from 'react-leaflet';
import { GROUP_CLICK_ZOOM_STEP, serializeGeoSubscription, type MapCluster } from '../../shared/map';
import { VehicleCanvasLayer } from './MapVehicleCanvas';
import { latestVehicles, select, streamState } from './mapState';
import { useGeoStream } from './useGeoStream';
import { useViewport } from './useViewport';
import { mergeSnapshot, vehicleTotal, type Snapshot } from './vehicleSnapshot';

/** Redraws at most this often (4 a second), whatever the stream's rate. */
export const VEHICLE_REDRAW_MS = 250;
/**
 * While the map is being moved (a move within the last MOVING_MS), at most once a second: a redraw of thousands
 * of vehicles costs a frame or two, and the canvas moves with the map anyway.
 */
export const VEHICLE_REDRAW_MOVING_MS = 1000;
const MOVING_MS = 150;

/**
 * Render-less: the geo stream's vehicles and groups on the vehicle canvas. `vehicleIds` is the filter's
 * choice (null: every vehicle; empty: none, so nothing is drawn and no stream is open). The map container
 * carries data-vehicle-count (vehicles drawn, groups counted by their members), data-item-count and
 * data-last-update (time of the last picture).
 */
export function MapVehiclesLayer({ vehicleIds }: { vehicleIds: readonly number[] | null }) {
  const map = useMap();
  const { bbox, zoom } = useViewport(map, 0.3);
  const layer = useMemo(() => new VehicleCanvasLayer({
    pane: 'vehicles',
    onItemClick: (item: MapCluster) => {
      if (item.type === 'group') map.setView(item.center, Math.min(map.getZoom() + GROUP_CLICK_ZOOM_STEP, map.getMaxZoom()));
      else select({ kind: 'vehicle', id: item.id, at: item.center, item });
    },
  }), [map]);
  const snapshot = useRef<Snapshot>(new Map());
  const pending = useRef<{ time: string; items: MapCluster[] } | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const lastDraw = useRef(0);
  const lastMove = useRef(0);

  useEffect(() => {
    if (!map.getPane('vehicles')) map.createPane('vehicles').style.zIndex = '450';
    layer.addTo(map);
    const container = map.getContainer();
    const moved = () => {
      lastMove.current = performance.now();
    };
    map.on('move', moved);
    return () => {
      map.off('move', moved);
      layer.remove();
      if (timer.current) clearTimeout(timer.current);
      timer.current = null;
      snapshot.current = new Map();
      latestVehicles.set(new Map());
      delete container.dataset.vehicleCount;
      delete container.dataset.itemCount;
    };
  }, [map, layer]);

  /** When the next redraw may happen: VEHICLE_REDRAW_MS after the last, or a second while the map moves. */
  const redrawDelay = () => {
    const now = performance.now();
    const moving = now - lastMove.current < MOVING_MS;
    return Math.max(0, lastDraw.current + (moving ? VEHICLE_REDRAW_MOVING_MS : VEHICLE_REDRAW_MS) - now);
  };

  const flush = () => {
    timer.current = null;
    const wait = redrawDelay();
    if (wait > 0 && pending.current) {
      timer.current = setTimeout(flush, Math.min(wait, MOVING_MS));
      return;
    }
    const next = pending.current;
    pending.current = null;
    if (!next) return;
    lastDraw.current = performance.now();
    const { snapshot: merged, changed } = mergeSnapshot(snapshot.current, next.items);
    snapshot.current = merged;
    const container = map.getContainer();
    container.dataset.lastUpdate = next.time;
    container.dataset.vehicleCount = String(vehicleTotal(merged));
    container.dataset.itemCount = String(merged.size);
    if (changed === 0) return;
    latestVehicles.set(merged);
    layer.setItems([...merged.values()]);
  };

  const none = vehicleIds !== null && vehicleIds.length === 0;
  const q = none ? null : serializeGeoSubscription({ bounds: bbox, zoom, vehicles: [...(vehicleIds ?? [])] });
  const { status, error } = useGeoStream(q, (time, items) => {
    pending.current = { time, items };
    if (timer.current) return;
    timer.current = setTimeout(flush, Math.min(redrawDelay(), MOVING_MS));
  });

  useEffect(() => {
    if (!none) return;
    pending.current = { time: new Date().toISOString(), items: [] };
    flush();
    // flush reads refs only
  }, [none]);

  useEffect(() => {
    streamState.set({ status: none ? 'stopped' : status, error });
  }, [status, error, none]);
  useEffect(() => () => streamState.set({ status: 'stopped', error: '' }), []);

  return null;
}
