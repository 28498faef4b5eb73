/**
 * Answers kept on the phone for reading offline (the last-seen handbook pages): the Cache Storage of the
 * browser, under addresses of our own, so the service worker's precache is untouched. POST answers cannot be
 * cached by the service worker itself (the Cache API keys on GET requests). Without Cache Storage (an insecure
 * origin) nothing is kept.
 */
const CACHE_NAME = 'field-answers-v1';
/** Entries kept at most; the oldest go first. */
const MAX_ENTRIES = 300;

export interface CachedAnswer<T> {
  body: T;
  /** When it was read from the server (ms). */
  at: number;
}

const address = (scope: string, key: string) => `/m/__cache/${encodeURIComponent(scope)}?k=${encodeURIComponent(key)}`;

const available = (): boolean => typeof caches !== 'undefined';

export async function keepAnswer(scope: string, key: string, body: unknown): Promise<void> {
  if (!available()) return;
  try {
    const cache = await caches.open(CACHE_NAME);
    await cache.put(
      address(scope, key),
      new Response(JSON.stringify({ body, at: Date.now() }), { headers: { 'content-type': 'application/json' } }),
    );
    const keys = await cache.keys();
    for (const old of keys.slice(0, Math.max(0, keys.length - MAX_ENTRIES))) await cache.delete(old);
  } catch {
    // a full or blocked storage only costs the offline copy
  }
}

export async function keptAnswer<T>(scope: string, key: string): Promise<CachedAnswer<T> | undefined> {
  if (!available()) return undefined;
  try {
    const response = await (await caches.open(CACHE_NAME)).match(address(scope, key));
    return response ? ((await response.json()) as CachedAnswer<T>) : undefined;
  } catch {
    return undefined;
  }
}

/** Logging out forgets what this user read. */
export async function forgetAnswers(): Promise<void> {
  if (available()) await caches.delete(CACHE_NAME).catch(() => false);
}
