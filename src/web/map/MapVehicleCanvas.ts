import L from 'leaflet';
import type { MapCluster } from '../../shared/map';
import { PresentedCanvas, type Canvas2D } from './base/presentedCanvas';
import { VEHICLE_RADIUS, nearRingSprite, vehicleSprite, type Sprite } from './vehicleSprite';
import { GROUP_COLOR, OFF_COLOR, groupRadius, vehicleColor } from './vehicleStyle';

/**
 * All vehicles and groups of the geo stream on one canvas (DESIGN.md: thousands of vehicles on a canvas,
 * not DOM markers). Like Leaflet's own renderers the canvas covers the view plus a margin and moves with
 * the map pane, so panning costs nothing until the view leaves the margin; a redraw copies one prepared
 * picture per vehicle (by colour and course), drawn off screen and handed over finished (PresentedCanvas: no
 * copy of its pixels on each frame of a drag). Clicks are hit-tested here (the canvas takes no pointer events).
 */
export interface VehicleCanvasOptions extends L.LayerOptions {
  /** Margin around the view, relative to its size. */
  padding?: number;
  onItemClick?: (item: MapCluster) => void;
}

const LABEL_MIN_ZOOM = 14;
/**
 * Phones run at 2.6–3.5 device pixels per CSS pixel: the vehicle canvas (the view plus its margin) would paint
 * 2–3 times the pixels of 2× on every redraw, for no visible gain on 14-pixel sprites.
 */
const MAX_CANVAS_PIXEL_RATIO = 2;
const canvasPixelRatio = () => Math.min(window.devicePixelRatio || 1, MAX_CANVAS_PIXEL_RATIO);
const LABEL_MAX_ITEMS = 400;
const TAU = Math.PI * 2;

interface MapPrivate {
  _getNewPixelOrigin(center: L.LatLng, zoom: number): L.Point;
}

export class VehicleCanvasLayer extends L.Layer {
  private readonly padding: number;
  private readonly onItemClick?: (item: MapCluster) => void;
  private canvas: PresentedCanvas | null = null;
  private items: readonly MapCluster[] = [];
  private ringed: ((vehicle: MapCluster) => boolean) | null = null;
  private colourOf: ((vehicle: MapCluster) => string | null) | null = null;
  private origin = L.point(0, 0);
  private size = L.point(0, 0);
  private originLatLng: L.LatLng | null = null;
  private drawnZoom = -1;
  /** Hit areas of the last draw in layer pixels: x, y, radius; index into `hitItems`. */
  private hitX = new Float64Array(0);
  private hitY = new Float64Array(0);
  private hitR = new Float64Array(0);
  private hitItems: MapCluster[] = [];
  private hoverFrame = 0;
  private redrawFrame = 0;

  constructor(options: VehicleCanvasOptions = {}) {
    super(options);
    this.padding = options.padding ?? 0.3;
    this.onItemClick = options.onItemClick;
  }

  onAdd(map: L.Map): this {
    const canvas = new PresentedCanvas(L.DomUtil.create('canvas', 'leaflet-zoom-animated map-vehicle-canvas'));
    canvas.element.style.pointerEvents = 'none';
    canvas.element.dataset.testid = 'map-vehicles-canvas';
    this.getPane()?.appendChild(canvas.element);
    this.canvas = canvas;
    this.redraw();
    void map;
    return this;
  }

  onRemove(): this {
    if (this._map) delete this._map.getContainer().dataset.groups;
    this.canvas?.element.remove();
    this.canvas = null;
    cancelAnimationFrame(this.hoverFrame);
    cancelAnimationFrame(this.redrawFrame);
    this._map?.getContainer().classList.remove('map-vehicle-hover');
    return this;
  }

  getEvents(): Record<string, L.LeafletEventHandlerFn> {
    return {
      moveend: this.onMoveEnd,
      viewreset: this.redraw,
      zoomend: this.redraw,
      resize: this.redraw,
      zoom: this.onZoom,
      zoomanim: this.onZoomAnim as L.LeafletEventHandlerFn,
      click: this.onClick as L.LeafletEventHandlerFn,
      mousemove: this.onMouseMove as L.LeafletEventHandlerFn,
    };
  }

  /** Drawn at the next frame, with a move's end that wants a redraw too. */
  setItems(items: readonly MapCluster[]): void {
    this.items = items;
    this.requestRedraw();
  }

  /** Vehicles with a ring round them (the field app's near the user), or none; drawn at the next frame. */
  setRinged(ringed: ((vehicle: MapCluster) => boolean) | null): void {
    this.ringed = ringed;
    this.requestRedraw();
  }

  /** A colour mode over the class colours (the timetable's adherence), or none; a stale vehicle stays grey. */
  setColourOf(colourOf: ((vehicle: MapCluster) => string | null) | null): void {
    this.colourOf = colourOf;
    this.requestRedraw();
  }

  /** The item under a container point (vehicles before the groups they overlap), or null. */
  itemAt(containerPoint: L.Point): MapCluster | null {
    if (!this._map) return null;
    const p = this._map.containerPointToLayerPoint(containerPoint);
    for (let i = this.hitItems.length - 1; i >= 0; i--) {
      const dx = this.hitX[i] - p.x;
      const dy = this.hitY[i] - p.y;
      const r = Math.max(this.hitR[i] + 3, 10);
      if (dx * dx + dy * dy <= r * r) return this.hitItems[i];
    }
    return null;
  }

  private onMoveEnd(): void {
    const map = this._map;
    if (!map || !this.canvas) return;
    const topLeft = map.containerPointToLayerPoint([0, 0]);
    const bottomRight = topLeft.add(map.getSize());
    const inside =
      topLeft.x >= this.origin.x &&
      topLeft.y >= this.origin.y &&
      bottomRight.x <= this.origin.x + this.size.x &&
      bottomRight.y <= this.origin.y + this.size.y;
    if (!inside || map.getZoom() !== this.drawnZoom) this.requestRedraw();
  }

  private requestRedraw(): void {
    cancelAnimationFrame(this.redrawFrame);
    this.redrawFrame = requestAnimationFrame(() => this.redraw());
  }

  private onZoom(): void {
    if (this._map) this.updateTransform(this._map.getCenter(), this._map.getZoom());
  }

  private onZoomAnim(event: L.ZoomAnimEvent): void {
    this.updateTransform(event.center, event.zoom);
  }

  private updateTransform(center: L.LatLng, zoom: number): void {
    const map = this._map;
    if (!map || !this.canvas || !this.originLatLng) return;
    const scale = map.getZoomScale(zoom, this.drawnZoom);
    const pixelOrigin = (map as unknown as MapPrivate)._getNewPixelOrigin(center, zoom);
    const offset = map.project(this.originLatLng, zoom).subtract(pixelOrigin);
    L.DomUtil.setTransform(this.canvas.element, offset, scale);
  }

  private onClick(event: L.LeafletMouseEvent): void {
    // a marker's click reaches the map too: it is the marker's, not the vehicle's beneath it
    const target = event.originalEvent?.target;
    if (target instanceof Element && target.closest('.leaflet-marker-icon, .leaflet-control, .leaflet-popup')) return;
    const item = this.itemAt(event.containerPoint);
    if (item) this.onItemClick?.(item);
  }

  private onMouseMove(event: L.LeafletMouseEvent): void {
    cancelAnimationFrame(this.hoverFrame);
    this.hoverFrame = requestAnimationFrame(() => {
      this._map?.getContainer().classList.toggle('map-vehicle-hover', this.itemAt(event.containerPoint) !== null);
    });
  }

  redraw(): void {
    cancelAnimationFrame(this.redrawFrame);
    const map = this._map;
    const canvas = this.canvas;
    if (!map || !canvas) return;
    const view = map.getSize();
    const min = map.containerPointToLayerPoint(view.multiplyBy(-this.padding)).round();
    const size = view.multiplyBy(1 + 2 * this.padding).round();
    const dpr = canvasPixelRatio();
    const { element, ctx } = canvas;
    if (element.width !== Math.round(size.x * dpr) || element.height !== Math.round(size.y * dpr)) {
      canvas.setSize(Math.round(size.x * dpr), Math.round(size.y * dpr));
      element.style.width = `${size.x}px`;
      element.style.height = `${size.y}px`;
    }
    L.DomUtil.setPosition(element, min);
    this.origin = min;
    this.size = size;
    this.originLatLng = map.layerPointToLatLng(min);
    this.drawnZoom = map.getZoom();
    if (!ctx) return;
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.clearRect(0, 0, element.width, element.height);
    ctx.setTransform(dpr, 0, 0, dpr, -min.x * dpr, -min.y * dpr);
    this.draw(ctx, map, min, min.add(size));
    canvas.present({ keep: false });
  }

  private draw(ctx: Canvas2D, map: L.Map, min: L.Point, max: L.Point): void {
    const margin = 30;
    const vehicles = new Map<string, { x: number; y: number; course: number; item: MapCluster }[]>();
    const groups: { x: number; y: number; item: MapCluster }[] = [];
    const rings: { x: number; y: number }[] = [];
    for (const item of this.items) {
      const p = map.latLngToLayerPoint(item.center);
      if (p.x < min.x - margin || p.y < min.y - margin || p.x > max.x + margin || p.y > max.y + margin) continue;
      if (item.type === 'group') {
        groups.push({ x: p.x, y: p.y, item });
      } else {
        const colour = (item.on && this.colourOf?.(item)) || vehicleColor(item.classRank, item.on);
        let list = vehicles.get(colour);
        if (!list) vehicles.set(colour, (list = []));
        list.push({ x: p.x, y: p.y, course: item.course, item });
        if (this.ringed?.(item)) rings.push(p);
      }
    }
    const total = groups.length + [...vehicles.values()].reduce((n, list) => n + list.length, 0);
    this.hitX = new Float64Array(total);
    this.hitY = new Float64Array(total);
    this.hitR = new Float64Array(total);
    this.hitItems = new Array<MapCluster>(total);
    let n = 0;
    const dpr = canvasPixelRatio();
    const put = (sprite: Sprite, x: number, y: number) =>
      ctx.drawImage(sprite.image, x + sprite.left, y + sprite.top, sprite.width, sprite.height);
    const ring = nearRingSprite(dpr);
    for (const r of rings) put(ring, Math.round(r.x), Math.round(r.y));
    // stale vehicles first, so that reporting ones are drawn over them
    const colours = [...vehicles.keys()].sort((a, b) => Number(b === OFF_COLOR) - Number(a === OFF_COLOR));
    for (const colour of colours) {
      for (const v of vehicles.get(colour) ?? []) {
        const x = Math.round(v.x);
        const y = Math.round(v.y);
        put(vehicleSprite(colour, v.course, dpr), x, y);
        this.hitX[n] = x;
        this.hitY[n] = y;
        this.hitR[n] = VEHICLE_RADIUS;
        this.hitItems[n++] = v.item;
      }
    }
    if (map.getZoom() >= LABEL_MIN_ZOOM && n <= LABEL_MAX_ITEMS) this.drawLabels(ctx, n);
    ctx.font = 'bold 12px Roboto, Arial, sans-serif';
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    ctx.strokeStyle = '#ffffff';
    for (const g of groups) {
      const radius = groupRadius(g.item.count);
      ctx.beginPath();
      ctx.arc(g.x, g.y, radius, 0, TAU);
      ctx.fillStyle = GROUP_COLOR;
      ctx.globalAlpha = 0.85;
      ctx.fill();
      ctx.globalAlpha = 1;
      ctx.lineWidth = 2;
      ctx.stroke();
      ctx.fillStyle = '#ffffff';
      ctx.fillText(String(g.item.count), g.x, g.y + 0.5);
      this.hitX[n] = g.x;
      this.hitY[n] = g.y;
      this.hitR[n] = radius;
      this.hitItems[n++] = g.item;
    }
    this.describeGroups(map, groups);
  }

  /**
   * The map container carries the groups in view as "x,y,count;…" in container pixels at the time of the draw
   * (data-groups, the biggest first, at most 20): what the canvas shows, for tests and diagnostics.
   */
  private describeGroups(map: L.Map, groups: readonly { x: number; y: number; item: MapCluster }[]): void {
    const size = map.getSize();
    const shown: string[] = [];
    for (const g of [...groups].sort((a, b) => b.item.count - a.item.count)) {
      const p = map.layerPointToContainerPoint(L.point(g.x, g.y));
      if (p.x < 0 || p.y < 0 || p.x > size.x || p.y > size.y) continue;
      shown.push(`${Math.round(p.x)},${Math.round(p.y)},${g.item.count}`);
      if (shown.length === 20) break;
    }
    map.getContainer().dataset.groups = shown.join(';');
  }

  /** Route numbers beside the vehicles when zoomed in. */
  private drawLabels(ctx: Canvas2D, count: number): void {
    ctx.font = '11px Roboto, Arial, sans-serif';
    ctx.textAlign = 'left';
    ctx.textBaseline = 'middle';
    ctx.lineWidth = 3;
    ctx.strokeStyle = '#ffffff';
    ctx.fillStyle = '#212121';
    for (let i = 0; i < count; i++) {
      const label = this.hitItems[i].route;
      if (!label) continue;
      ctx.strokeText(label, this.hitX[i] + VEHICLE_RADIUS + 4, this.hitY[i]);
      ctx.fillText(label, this.hitX[i] + VEHICLE_RADIUS + 4, this.hitY[i]);
    }
    ctx.lineWidth = 1.5;
  }
}
