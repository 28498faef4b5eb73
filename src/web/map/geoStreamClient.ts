import { GEO_STREAM_PATH, applyGeoDelta, clusterKey, type MapCluster } from '../../shared/map';
import { SseParser, decodeGeoEvent } from './geoStreamParser';

/**
 * The geo stream (DESIGN.md, Live data): GET /geoapi/v1/geo/1?q=... read as server-sent events with a
 * ReadableStream reader (so the token travels in a header, which EventSource cannot do). `hello` gives the
 * stream id; a new region, zoom or filter is PUT to /geoapi/v1/geo/1/{streamId} (debounced) instead of
 * reconnecting. The first `points` is the whole picture; later changes come as `delta`s, applied here, so
 * `onPoints` always receives the whole picture. A failed or ended stream (or a delta that does not follow
 * the picture held) reconnects with backoff; `stop` cancels everything.
 */
export type GeoStreamStatus = 'connecting' | 'open' | 'retrying' | 'denied' | 'stopped';

export interface GeoStreamOptions {
  onPoints: (time: string, items: MapCluster[]) => void;
  onStatus?: (status: GeoStreamStatus, error?: string) => void;
  /** The session ended (401). */
  onUnauthorized?: () => void;
  headers: () => Record<string, string>;
  /** PUT of the new subscription; rejects with `{ status }` on failure. */
  put: (url: string, body: { q: string }) => Promise<unknown>;
  fetch?: typeof fetch;
  backoffMs?: readonly number[];
  debounceMs?: number;
}

export const GEO_BACKOFF_MS = [1000, 2000, 5000, 10_000, 30_000] as const;

export class GeoStreamClient {
  private q = '';
  private sentQ = '';
  private streamId: string | null = null;
  private stopped = true;
  private attempt = 0;
  private controller: AbortController | null = null;
  private debounce: ReturnType<typeof setTimeout> | null = null;
  private wake: (() => void) | null = null;

  constructor(private readonly options: GeoStreamOptions) {}

  start(q: string): void {
    this.q = q;
    if (!this.stopped) return;
    this.stopped = false;
    void this.run();
  }

  /** A new subscription: sent (debounced) to the open stream, or used by the next connection. */
  update(q: string): void {
    this.q = q;
    if (this.debounce) clearTimeout(this.debounce);
    this.debounce = setTimeout(() => void this.send(), this.options.debounceMs ?? 300);
  }

  stop(): void {
    this.stopped = true;
    if (this.debounce) clearTimeout(this.debounce);
    this.controller?.abort();
    this.wake?.();
    this.options.onStatus?.('stopped');
  }

  private async send(): Promise<void> {
    this.debounce = null;
    const id = this.streamId;
    if (this.stopped || !id || this.q === this.sentQ) return;
    const q = this.q;
    try {
      await this.options.put(`${GEO_STREAM_PATH}/${encodeURIComponent(id)}`, { q });
      if (this.streamId === id) this.sentQ = q;
    } catch (error) {
      if ((error as { status?: number }).status === 401) return this.unauthorized();
      // the stream is gone on the server (restart, another process): reconnect with the new subscription
      if (this.streamId === id) this.reconnectNow();
    }
  }

  private reconnectNow(): void {
    this.attempt = 0;
    this.controller?.abort();
    this.wake?.();
  }

  private unauthorized(): void {
    this.stop();
    this.options.onUnauthorized?.();
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      let error = '';
      try {
        error = await this.connect();
      } catch (cause) {
        error = cause instanceof Error ? cause.message : String(cause);
      }
      this.streamId = null;
      if (this.stopped) return;
      this.options.onStatus?.('retrying', error);
      const delays = this.options.backoffMs ?? GEO_BACKOFF_MS;
      await this.sleep(delays[Math.min(this.attempt, delays.length - 1)]);
      this.attempt++;
    }
  }

  /** One connection until it fails or ends; returns why it ended. */
  private async connect(): Promise<string> {
    this.controller = new AbortController();
    this.options.onStatus?.('connecting');
    const q = this.q;
    const response = await (this.options.fetch ?? fetch)(`${GEO_STREAM_PATH}?q=${encodeURIComponent(q)}`, {
      headers: { accept: 'text/event-stream', ...this.options.headers() },
      signal: this.controller.signal,
      cache: 'no-store',
    });
    if (response.status === 401) {
      this.unauthorized();
      return 'HTTP 401';
    }
    if (response.status === 403) {
      this.stopped = true;
      this.options.onStatus?.('denied', 'HTTP 403');
      return 'HTTP 403';
    }
    if (!response.ok || !response.body) return `HTTP ${response.status}`;
    this.sentQ = q;
    await this.read(response.body);
    return 'ended';
  }

  private async read(body: ReadableStream<Uint8Array>): Promise<void> {
    const reader = body.getReader();
    const decoder = new TextDecoder();
    const parser = new SseParser();
    /** The picture the server has sent so far (`points`, then `delta`s applied to it) and its number. */
    let picture = new Map<string, MapCluster>();
    let version: number | null = null;
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done || this.stopped) return;
        for (const message of parser.push(decoder.decode(value, { stream: true }))) {
          const event = decodeGeoEvent(message);
          if (event?.event === 'hello') {
            this.streamId = event.data.streamId;
            this.attempt = 0;
            this.options.onStatus?.('open');
            if (this.q !== this.sentQ) void this.send();
          } else if (event?.event === 'points') {
            if (this.attempt !== 0 || !this.streamId) this.options.onStatus?.('open');
            this.attempt = 0;
            picture = new Map();
            for (const item of event.data.items) picture.set(clusterKey(item), item);
            version = event.data.v ?? null;
            this.options.onPoints(event.data.time, [...picture.values()]);
          } else if (event?.event === 'delta') {
            // A delta applies to the picture it was made against; anything else means a frame went missing.
            if (version === null || event.data.base !== version || !applyGeoDelta(picture, event.data)) return;
            version = event.data.v;
            this.options.onPoints(event.data.time, [...picture.values()]);
          }
        }
      }
    } finally {
      reader.cancel().catch(() => undefined);
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wake = done;
    });
  }
}
