import L from 'leaflet';
import { PresentedCanvas } from './presentedCanvas';

interface RendererInternals {
  _map?: L.Map & { _animatingZoom?: boolean };
  _bounds?: L.Bounds;
  _zoom?: number;
  _container?: HTMLCanvasElement;
  _ctx?: unknown;
  _onMouseMove(event: MouseEvent): void;
  _onClick(event: MouseEvent): void;
  _handleMouseOut(event: MouseEvent): void;
  _initContainer(): void;
  _update(): void;
  _reset(): void;
  _draw(): void;
  fire(type: string): void;
}

/**
 * Leaflet's canvas renderer for the routes, stops and points, except that:
 * - a move which keeps the view inside the area already drawn (the view plus `padding`) redraws nothing:
 *   Leaflet resizes, clears and redraws its canvas after every move;
 * - it draws off screen and hands the finished picture to the page (PresentedCanvas), so that a frame of a
 *   drag does not copy the canvas's pixels.
 */
export function lazyCanvas(options: L.RendererOptions = {}): L.Canvas {
  const renderer = L.canvas({ padding: 0.3, ...options });
  const self = renderer as unknown as RendererInternals;
  const update = self._update;
  const reset = self._reset;
  const draw = self._draw;
  let canvas: PresentedCanvas | null = null;
  // as Leaflet's, with the presented canvas's element for the container and its drawing surface for the context
  self._initContainer = function presentedContainer(this: RendererInternals) {
    canvas = new PresentedCanvas();
    const container = canvas.element;
    this._container = container;
    L.DomEvent.on(container, 'mousemove', this._onMouseMove as L.DomEvent.EventHandlerFn, this);
    L.DomEvent.on(container, 'click dblclick mousedown mouseup contextmenu', this._onClick as L.DomEvent.EventHandlerFn, this);
    L.DomEvent.on(container, 'mouseout', this._handleMouseOut as L.DomEvent.EventHandlerFn, this);
    (container as unknown as { _leaflet_disable_events: boolean })._leaflet_disable_events = true;
    this._ctx = canvas.ctx;
  };
  self._update = function lazyUpdate(this: RendererInternals) {
    const map = this._map;
    const drawn = this._bounds;
    if (map && drawn && !map._animatingZoom && this._zoom === map.getZoom()) {
      const topLeft = map.containerPointToLayerPoint([0, 0]);
      if (drawn.contains(topLeft) && drawn.contains(topLeft.add(map.getSize()))) return;
    }
    if (!canvas || !map || !this._container || (map._animatingZoom && drawn)) return update.call(this);
    // Leaflet's, with the drawing surface sized along with the container
    (L.Renderer.prototype as unknown as RendererInternals)._update.call(this);
    const { min, max } = this._bounds as Required<L.Bounds>;
    const size = max.subtract(min);
    const scale = L.Browser.retina ? 2 : 1;
    L.DomUtil.setPosition(this._container, min);
    canvas.setSize(scale * size.x, scale * size.y);
    this._container.style.width = `${size.x}px`;
    this._container.style.height = `${size.y}px`;
    canvas.ctx?.scale(scale, scale);
    // the same path coordinates after the canvas moves
    canvas.ctx?.translate(-min.x, -min.y);
    this.fire('update');
  };
  // every drawing (a full redraw, a partial one, the first) is shown when done; partial redraws go on from it
  self._draw = function presentedDraw(this: RendererInternals) {
    draw.call(this);
    canvas?.present({ keep: true });
  };
  // after a view reset the layer pixels start from a new origin: the drawn area says nothing any more
  self._reset = function fullReset(this: RendererInternals) {
    this._bounds = undefined;
    reset.call(this);
  };
  return renderer;
}
