/** The times a validation file may carry, read into epoch milliseconds: the bulk of a large file's parsing. */
const LOCAL_TIME = /^(\d{2})\.(\d{2})\.(\d{4})[ T](\d{2}):(\d{2})(?::(\d{2}))?$/;
const ISO_LOCAL = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})(?::(\d{2}))?$/;
const ISO_ZONED = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:?\d{2})$/;

/** The number of `length` digits at `at` in `text`, or -1. */
function digits(text: string, at: number, length: number): number {
  let n = 0;
  for (let i = at; i < at + length; i++) {
    const c = text.charCodeAt(i) - 48;
    if (c < 0 || c > 9) return -1;
    n = n * 10 + c;
  }
  return n;
}

/**
 * 'YYYY-MM-DDTHH:mm:ss[.f…]' with 'Z' or '±HH:MM' (what a fare system writes, and the bulk of a large file)
 * read by character codes: the regular expression and Date.parse were a fifth of the import's parsing.
 * NaN for anything else, or for a field out of range (the general path then reads the first, refuses the second).
 */
function isoZonedFast(text: string): number {
  const n = text.length;
  if (
    n < 20 ||
    text.charCodeAt(4) !== 45 ||
    text.charCodeAt(7) !== 45 ||
    text.charCodeAt(10) !== 84 ||
    text.charCodeAt(13) !== 58 ||
    text.charCodeAt(16) !== 58
  )
    return Number.NaN;
  const y = digits(text, 0, 4);
  const mo = digits(text, 5, 2);
  const d = digits(text, 8, 2);
  const h = digits(text, 11, 2);
  const mi = digits(text, 14, 2);
  const s = digits(text, 17, 2);
  let at = 19;
  let ms = 0;
  if (text.charCodeAt(at) === 46) {
    let places = 0;
    for (at += 1; at < n && places < 7; at++, places++) {
      const c = text.charCodeAt(at) - 48;
      if (c < 0 || c > 9) break;
      if (places < 3) ms += c * (places === 0 ? 100 : places === 1 ? 10 : 1);
    }
    if (places < 1 || places > 6) return Number.NaN;
  }
  let offset = 0;
  if (at === n - 1 && text.charCodeAt(at) === 90) offset = 0;
  else if (at === n - 6 && (text.charCodeAt(at) === 43 || text.charCodeAt(at) === 45) && text.charCodeAt(at + 3) === 58) {
    const oh = digits(text, at + 1, 2);
    const om = digits(text, at + 4, 2);
    if (oh < 0 || om < 0 || oh > 23 || om > 59) return Number.NaN;
    offset = (text.charCodeAt(at) === 43 ? 1 : -1) * (oh * 60 + om);
  } else return Number.NaN;
  if (y < 0 || mo < 1 || mo > 12 || d < 1 || h < 0 || h > 23 || mi < 0 || mi > 59 || s < 0 || s > 59) return Number.NaN;
  const time = Date.UTC(y, mo - 1, d, h, mi, s, ms);
  if (d > 28 && new Date(time).getUTCDate() !== d) return Number.NaN;
  return time - offset * 60_000;
}

/** An operator-local 'DD.MM.YYYY HH:mm[:ss]' or 'YYYY-MM-DD HH:mm[:ss]', or ISO 8601 with its zone: epoch ms. */
export function importTime(text: string, tzOffsetMinutes: number): number {
  const fast = isoZonedFast(text);
  if (!Number.isNaN(fast)) return fast;
  // Date.parse rolls a 31st of a 30-day month over into the next month: such a day is refused, as in the local forms
  if (ISO_ZONED.test(text)) return Number.isNaN(isoZonedFast(`${text.slice(0, 10)}T00:00:00Z`)) ? Number.NaN : Date.parse(text);
  const local = LOCAL_TIME.exec(text);
  const iso = ISO_LOCAL.exec(text);
  const [y, mo, d, h, mi, s] = local ? [local[3], local[2], local[1], local[4], local[5], local[6]] : iso ? iso.slice(1) : [];
  if (!y) return Number.NaN;
  const ms = Date.UTC(+y, +mo - 1, +d, +h, +mi, +(s ?? 0));
  const back = new Date(ms);
  if (back.getUTCMonth() !== +mo - 1 || back.getUTCDate() !== +d || +h > 23 || +mi > 59 || +(s ?? 0) > 59) return Number.NaN;
  return ms - tzOffsetMinutes * 60_000;
}
