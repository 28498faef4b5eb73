import { offscreenSurface, type Canvas2D } from './base/presentedCanvas';

/**
 * A vehicle as a small picture, drawn once per colour and course (in 5° steps) and then only copied onto the
 * vehicle canvas: copying thousands of small pictures is much cheaper than filling and stroking thousands of
 * paths, above all where the browser draws without a GPU. Each picture is cut to what it shows (the circle and
 * its nose), since a redraw's cost is the pixels copied, and kept as an ImageBitmap where the browser can (a
 * canvas as the source of a copy is snapshotted at each copy).
 */
export const VEHICLE_RADIUS = 7;
/** The ring round a vehicle near the field app's user (field-app spec 4). */
export const NEAR_RING = { radius: 13, width: 2.5, colour: '#2e7d32' };
const COURSE_STEP = 5;
const TAU = Math.PI * 2;
const RIM = 1.5;
/** Beyond the shapes: half the rim and the edge's smoothing. */
const BLEED = RIM / 2 + 1;

/** A picture and where its top left corner goes from the vehicle's point, in CSS pixels. */
export interface Sprite {
  image: ImageBitmap | HTMLCanvasElement;
  left: number;
  top: number;
  width: number;
  height: number;
}

const sprites = new Map<string, Sprite>();

/**
 * A sprite of the box [left, top, right, bottom] round the point (0, 0) at `dpr`: `paint` draws it about the point.
 */
function makeSprite(box: [number, number, number, number], dpr: number, paint: (ctx: Canvas2D) => void): Sprite {
  const [left, top] = [Math.floor(box[0]), Math.floor(box[1])];
  const [width, height] = [Math.ceil(box[2]) - left, Math.ceil(box[3]) - top];
  const [pixelsX, pixelsY] = [Math.ceil(width * dpr), Math.ceil(height * dpr)];
  const surface = offscreenSurface(pixelsX, pixelsY);
  const canvas = surface ?? Object.assign(document.createElement('canvas'), { width: pixelsX, height: pixelsY });
  const ctx = canvas.getContext('2d') as Canvas2D | null;
  if (ctx) {
    ctx.scale(dpr, dpr);
    ctx.translate(-left, -top);
    paint(ctx);
  }
  return { image: surface ? surface.transferToImageBitmap() : (canvas as HTMLCanvasElement), left, top, width, height };
}

/** A circle in the class colour with a white rim and a nose along the course (degrees from north). */
export function vehicleSprite(colour: string, course: number, dpr: number): Sprite {
  const step = (Math.round(((((course || 0) % 360) + 360) % 360) / COURSE_STEP) * COURSE_STEP) % 360;
  const key = `${colour}|${step}|${dpr}`;
  const known = sprites.get(key);
  if (known) return known;
  const a = (step * Math.PI) / 180;
  const dx = Math.sin(a);
  const dy = -Math.cos(a);
  const base = VEHICLE_RADIUS - 3;
  const tip = VEHICLE_RADIUS + 6;
  const nose: [number, number][] = [
    [dx * tip, dy * tip],
    [dx * base - dy * 5.5, dy * base + dx * 5.5],
    [dx * base + dy * 5.5, dy * base - dx * 5.5],
  ];
  const xs = [-VEHICLE_RADIUS, VEHICLE_RADIUS, ...nose.map((p) => p[0])];
  const ys = [-VEHICLE_RADIUS, VEHICLE_RADIUS, ...nose.map((p) => p[1])];
  const sprite = makeSprite(
    [Math.min(...xs) - BLEED, Math.min(...ys) - BLEED, Math.max(...xs) + BLEED, Math.max(...ys) + BLEED],
    dpr,
    (ctx) => {
      ctx.fillStyle = colour;
      ctx.strokeStyle = '#ffffff';
      ctx.lineWidth = RIM;
      ctx.lineJoin = 'round';
      ctx.beginPath();
      ctx.moveTo(...nose[0]);
      ctx.lineTo(...nose[1]);
      ctx.lineTo(...nose[2]);
      ctx.closePath();
      ctx.fill();
      ctx.stroke();
      ctx.beginPath();
      ctx.arc(0, 0, VEHICLE_RADIUS, 0, TAU);
      ctx.fill();
      ctx.stroke();
    },
  );
  sprites.set(key, sprite);
  return sprite;
}

/** The near-user ring as a picture. */
export function nearRingSprite(dpr: number): Sprite {
  const key = `ring|${dpr}`;
  const known = sprites.get(key);
  if (known) return known;
  const reach = NEAR_RING.radius + NEAR_RING.width / 2 + 1;
  const sprite = makeSprite([-reach, -reach, reach, reach], dpr, (ctx) => {
    ctx.strokeStyle = NEAR_RING.colour;
    ctx.lineWidth = NEAR_RING.width;
    ctx.beginPath();
    ctx.arc(0, 0, NEAR_RING.radius, 0, TAU);
    ctx.stroke();
  });
  sprites.set(key, sprite);
  return sprite;
}
