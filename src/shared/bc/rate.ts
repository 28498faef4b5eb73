/**
 * The route rating's colour (console spec section 9: the gradient runs from green through orange and yellow
 * to red), by violations per 100 passengers checked: 0 is green, `redAt` and above red (the /system/bc setting
 * «Красный цвет рейтинга от», RATE_RED by default).
 */
export const RATE_RED = 8;
const STOPS = ['#2e7d32', '#fb8c00', '#fdd835', '#c62828'] as const;

const channel = (hex: string, i: number) => parseInt(hex.slice(1 + i * 2, 3 + i * 2), 16);

export function rateColor(rate: number, redAt: number = RATE_RED): string {
  const t = Math.max(0, Math.min(1, (Number.isFinite(rate) ? rate : 0) / (redAt > 0 ? redAt : RATE_RED))) * (STOPS.length - 1);
  const i = Math.min(STOPS.length - 2, Math.floor(t));
  const f = t - i;
  const mix = [0, 1, 2].map((c) => Math.round(channel(STOPS[i], c) * (1 - f) + channel(STOPS[i + 1], c) * f));
  return `#${mix.map((v) => v.toString(16).padStart(2, '0')).join('')}`;
}
