/**
 * A request body fit for the journal: secrets and bulk payloads masked, size bounded. Keys are matched by
 * name, case-insensitively: anything with password, token or secret in it, and csv (an import's whole file).
 */
const SECRET_KEY = /password|passwd|token|secret|^csv$/i;
const MASK = '***';
const MAX_DEPTH = 6;
const MAX_ITEMS = 200;
const MAX_STRING = 2000;
/** Above this the journal keeps a note of the size, not the body: one import must not bloat the journal. */
export const MAX_JOURNALED_JSON = 32_768;

export function redact(value: unknown, depth = 0): unknown {
  if (value === null || typeof value === 'number' || typeof value === 'boolean') return value;
  if (typeof value === 'string') return value.length > MAX_STRING ? `${cutAt(value, MAX_STRING)}…` : value;
  if (depth >= MAX_DEPTH) return '…';
  if (Array.isArray(value)) return value.slice(0, MAX_ITEMS).map((item) => redact(item, depth + 1));
  if (isPlainRecord(value)) {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>).map(([key, item]) => [key, SECRET_KEY.test(key) ? MASK : redact(item, depth + 1)]),
    );
  }
  // Buffers, streams, multipart files: not journal material.
  return value === undefined ? undefined : '[binary]';
}

/** The first `length` UTF-16 units of a text, less a surrogate pair's first half left alone at the cut. */
function cutAt(text: string, length: number): string {
  const code = text.charCodeAt(length - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? length - 1 : length);
}

/** The redacted value, or a size note when even redacted it is too large to journal. */
export function journalable(value: unknown): unknown {
  const clean = redact(value);
  const size = JSON.stringify(clean ?? null).length;
  return size > MAX_JOURNALED_JSON ? { truncated: true, size } : clean;
}

/** JSON bodies have Object's prototype; parsed query strings have none. */
function isPlainRecord(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}
