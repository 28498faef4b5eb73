import L from 'leaflet';

interface RendererInternals {
  _map?: L.Map & { _animatingZoom?: boolean };
  _bounds?: L.Bounds;
  _zoom?: number;
  _update(): void;
  _reset(): void;
}

/**
 * Leaflet's canvas renderer for the routes, stops and points, except that a move which keeps the view inside
 * the area already drawn (the view plus `padding`) redraws nothing: Leaflet resizes, clears and redraws its
 * canvas after every move, which costs a frame each time the map is panned continuously.
 */
export function lazyCanvas(options: L.RendererOptions = {}): L.Canvas {
  const renderer = L.canvas({ padding: 0.3, ...options });
  const self = renderer as unknown as RendererInternals;
  const update = self._update;
  const reset = self._reset;
  self._update = function lazyUpdate(this: RendererInternals) {
    const map = this._map;
    const bounds = this._bounds;
    if (map && bounds && !map._animatingZoom && this._zoom === map.getZoom()) {
      const topLeft = map.containerPointToLayerPoint([0, 0]);
      if (bounds.contains(topLeft) && bounds.contains(topLeft.add(map.getSize()))) return;
    }
    update.call(this);
  };
  // after a view reset the layer pixels start from a new origin: the drawn area says nothing any more
  self._reset = function fullReset(this: RendererInternals) {
    this._bounds = undefined;
    reset.call(this);
  };
  return renderer;
}
