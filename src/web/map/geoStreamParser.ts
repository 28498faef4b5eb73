import type { GeoDelta, GeoEvent, MapCluster } from '../../shared/map';

/**
 * An incremental parser of a server-sent event stream (the WHATWG "event stream" format): feed it text
 * chunks split anywhere; it returns the events completed so far. Comment lines (': heartbeat') are skipped,
 * multi-line data is joined with '\n', CRLF, CR and LF all end a line.
 */
export interface SseMessage {
  event: string;
  data: string;
  id?: string;
}

/** Index of the first CR or LF at or after `from`, or -1 (streams without CR cost one search for it). */
function lineBreak(text: string, from: number, hasCr: boolean): number {
  const lf = text.indexOf('\n', from);
  const cr = hasCr ? text.indexOf('\r', from) : -1;
  return cr < 0 ? lf : lf < 0 ? cr : Math.min(lf, cr);
}

export class SseParser {
  private event = '';
  private data: string[] = [];
  private id: string | undefined;

  /** A CR ended the last line: a LF starting the next chunk belongs to it. */
  private afterCr = false;
  /** The unfinished line, in pieces: a big event is copied once, not once per chunk. */
  private pieces: string[] = [];

  push(chunk: string): SseMessage[] {
    let text = chunk;
    if (this.afterCr && text.startsWith('\n')) text = text.slice(1);
    this.afterCr = false;
    const out: SseMessage[] = [];
    let start = 0;
    const hasCr = text.includes('\r');
    for (;;) {
      const end = lineBreak(text, start, hasCr);
      if (end < 0) break;
      const head = text.slice(start, end);
      const line = this.pieces.length ? this.pieces.join('') + head : head;
      this.pieces = [];
      const message = this.line(line);
      if (message) out.push(message);
      start = end + 1;
      if (text.charCodeAt(end) === 13) {
        if (end + 1 === text.length) this.afterCr = true;
        else if (text.charCodeAt(end + 1) === 10) start++;
      }
    }
    if (start < text.length) this.pieces.push(text.slice(start));
    return out;
  }

  private line(line: string): SseMessage | null {
    if (line === '') return this.dispatch();
    if (line.startsWith(':')) return null;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') this.event = value;
    else if (field === 'data') this.data.push(value);
    else if (field === 'id') this.id = value;
    return null;
  }

  private dispatch(): SseMessage | null {
    const message = this.data.length > 0 ? { event: this.event || 'message', data: this.data.join('\n'), id: this.id } : null;
    this.event = '';
    this.data = [];
    return message;
  }
}

function isCluster(value: unknown): value is MapCluster {
  if (!value || typeof value !== 'object') return false;
  const item = value as Partial<MapCluster>;
  return (
    (item.type === 'vehicle' || item.type === 'group') &&
    typeof item.id === 'number' &&
    Array.isArray(item.center) &&
    typeof item.center[0] === 'number' &&
    typeof item.center[1] === 'number'
  );
}

/** The geo stream's event of one message, or null for an unknown event or a malformed body. */
export function decodeGeoEvent(message: SseMessage): GeoEvent | null {
  let data: unknown;
  try {
    data = JSON.parse(message.data);
  } catch {
    return null;
  }
  if (!data || typeof data !== 'object') return null;
  if (message.event === 'hello') {
    const streamId = (data as { streamId?: unknown }).streamId;
    return typeof streamId === 'string' || typeof streamId === 'number' ? { event: 'hello', data: { streamId: String(streamId) } } : null;
  }
  if (message.event === 'points') {
    const { time, items, v } = data as { time?: unknown; items?: unknown; v?: unknown };
    if (!Array.isArray(items)) return null;
    const points = { time: typeof time === 'string' ? time : new Date().toISOString(), items: items.filter(isCluster) };
    return { event: 'points', data: typeof v === 'number' ? { ...points, v } : points };
  }
  if (message.event === 'delta') {
    const { time, at, v, base, vehicles, groups, gone } = data as Partial<Record<keyof GeoDelta, unknown>>;
    const rows = (list: unknown, length: number) =>
      Array.isArray(list) && list.every((row) => Array.isArray(row) && row.length >= length && typeof row[0] === 'number');
    if (
      typeof at !== 'number' ||
      typeof v !== 'number' ||
      typeof base !== 'number' ||
      !rows(vehicles, 7) ||
      !rows(groups, 7) ||
      !Array.isArray(gone) ||
      !gone.every((key) => typeof key === 'string')
    )
      return null;
    return {
      event: 'delta',
      data: { time: typeof time === 'string' ? time : new Date(at).toISOString(), at, v, base, vehicles, groups, gone } as GeoDelta,
    };
  }
  return null;
}
