export type Canvas2D = CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D;

/** An OffscreenCanvas with 2D drawing, of `width` × `height` pixels, where the browser has one. */
export function offscreenSurface(width = 1, height = 1): OffscreenCanvas | null {
  if (typeof OffscreenCanvas === 'undefined') return null;
  const surface = new OffscreenCanvas(width, height);
  return surface.getContext('2d') ? surface : null;
}

/**
 * A map canvas drawn off screen and handed to the page as a finished picture (a `bitmaprenderer` canvas).
 * Without a GPU (software compositing) Chromium copies the pixels of every 2D canvas on the page each time a
 * frame is committed, drawn or not: ~10 ms a frame for each of the map's canvases on a phone-like CPU while the
 * map is dragged. A handed-over picture is shown as it is. Where the browser has no OffscreenCanvas it is an
 * ordinary 2D canvas.
 */
export class PresentedCanvas {
  /** The element in the page. */
  readonly element: HTMLCanvasElement;
  /** What to draw on (null where the browser draws nothing, as jsdom). */
  readonly ctx: Canvas2D | null;
  private readonly surface: OffscreenCanvas | null;
  private readonly picture: ImageBitmapRenderingContext | null;

  constructor(element: HTMLCanvasElement = document.createElement('canvas')) {
    this.element = element;
    const surface = offscreenSurface();
    // (Safari before 16.4 has OffscreenCanvas without its 2D drawing)
    this.picture = surface ? element.getContext('bitmaprenderer') : null;
    this.surface = this.picture ? surface : null;
    this.ctx = this.surface ? this.surface.getContext('2d') : element.getContext('2d');
  }

  /** Device pixels of the drawing (clears it and its state, as a canvas's resize does). */
  setSize(width: number, height: number): void {
    for (const canvas of [this.element, this.surface]) {
      if (!canvas) continue;
      canvas.width = width;
      canvas.height = height;
    }
  }

  /**
   * Shows what was drawn. `keep`: the drawing goes on from this picture (partial redraws), else the next
   * drawing starts from a blank surface.
   */
  present({ keep }: { keep: boolean }): void {
    if (!this.surface || !this.picture || !this.ctx) return;
    const bitmap = this.surface.transferToImageBitmap();
    if (keep) {
      this.ctx.save();
      this.ctx.setTransform(1, 0, 0, 1, 0, 0);
      this.ctx.globalCompositeOperation = 'copy';
      this.ctx.drawImage(bitmap, 0, 0);
      this.ctx.restore();
    }
    this.picture.transferFromImageBitmap(bitmap);
  }
}
