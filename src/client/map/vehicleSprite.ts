/**
 * A vehicle as a small picture, drawn once per colour and course (in 5° steps) and then only copied onto the
 * vehicle canvas: copying thousands of small pictures is much cheaper than filling and stroking thousands of
 * paths, above all where the browser draws without a GPU.
 */
export const VEHICLE_RADIUS = 7;
export const SPRITE_HALF = 16;
const COURSE_STEP = 5;
const TAU = Math.PI * 2;
const sprites = new Map<string, HTMLCanvasElement>();

/** A circle in the class colour with a white rim and a nose along the course (degrees from north). */
export function vehicleSprite(colour: string, course: number, dpr: number): HTMLCanvasElement {
  const step = (Math.round((((course || 0) % 360) + 360) % 360 / COURSE_STEP) * COURSE_STEP) % 360;
  const key = `${colour}|${step}|${dpr}`;
  let sprite = sprites.get(key);
  if (sprite) return sprite;
  sprite = document.createElement('canvas');
  sprite.width = sprite.height = Math.ceil(SPRITE_HALF * 2 * dpr);
  const ctx = sprite.getContext('2d');
  if (ctx) {
    ctx.scale(dpr, dpr);
    ctx.translate(SPRITE_HALF, SPRITE_HALF);
    ctx.fillStyle = colour;
    ctx.strokeStyle = '#ffffff';
    ctx.lineWidth = 1.5;
    ctx.lineJoin = 'round';
    const a = (step * Math.PI) / 180;
    const dx = Math.sin(a);
    const dy = -Math.cos(a);
    const base = VEHICLE_RADIUS - 3;
    const tip = VEHICLE_RADIUS + 6;
    ctx.beginPath();
    ctx.moveTo(dx * tip, dy * tip);
    ctx.lineTo(dx * base - dy * 5.5, dy * base + dx * 5.5);
    ctx.lineTo(dx * base + dy * 5.5, dy * base - dx * 5.5);
    ctx.closePath();
    ctx.fill();
    ctx.stroke();
    ctx.beginPath();
    ctx.arc(0, 0, VEHICLE_RADIUS, 0, TAU);
    ctx.fill();
    ctx.stroke();
  }
  sprites.set(key, sprite);
  return sprite;
}
