import { applyGeoDelta, clusterKey, type GeoDelta, type MapCluster } from '../../src/shared/map';

interface SseEvent {
  event: string;
  data: string;
}

/** A geo stream client as the map screen has one: fetch with the Authorization header, events read off the body. */
export async function openStream(url: string, authorization: string) {
  const abort = new AbortController();
  const response = await fetch(url, { headers: { authorization }, signal: abort.signal });
  const queue: SseEvent[] = [];
  let picture = new Map<string, MapCluster>();
  const waiters: (() => void)[] = [];
  let done = false;
  const pump = (async () => {
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for (;;) {
        const { value, done: end } = await reader.read();
        if (end) break;
        buffer += decoder.decode(value, { stream: true });
        let cut: number;
        while ((cut = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          const lines = block.split('\n');
          const event = lines.find((l) => l.startsWith('event: '))?.slice(7);
          const data = lines.find((l) => l.startsWith('data: '))?.slice(6);
          if (event && data !== undefined) queue.push({ event, data });
          // after each 'points' or 'delta' a 'picture' event: what the client holds then, as the map's client keeps it
          if (event === 'points' || event === 'delta') {
            const frame = JSON.parse(data!) as { time: string; items: MapCluster[] } & GeoDelta;
            if (event === 'points') picture = new Map(frame.items.map((i) => [clusterKey(i), i]));
            else if (!applyGeoDelta(picture, frame)) throw new Error('a delta that does not follow the picture');
            queue.push({ event: 'picture', data: JSON.stringify({ time: frame.time, items: [...picture.values()] }) });
          }
          waiters.splice(0).forEach((wake) => wake());
        }
      }
    } catch {
      // aborted
    } finally {
      done = true;
      waiters.splice(0).forEach((wake) => wake());
    }
  })();
  /** The next event named `name` that satisfies `test`, skipping others. */
  const next = async <T>(name: string, test: (data: T) => boolean = () => true, timeoutMs = 5000): Promise<T> => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      while (queue.length) {
        const item = queue.shift()!;
        const data = JSON.parse(item.data) as T;
        if (item.event === name && test(data)) return data;
      }
      if (done) throw new Error(`stream ended before ${name}`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no ${name} event within ${timeoutMs} ms`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  };
  return {
    response,
    next,
    get ended() {
      return done;
    },
    async close() {
      abort.abort();
      await pump;
    },
    pump,
  };
}
