import type { FastifyBaseLogger } from 'fastify';
import { Redis, type RedisOptions } from 'ioredis';
import type { Transport } from './bus';

/**
 * The bus over Redis pub/sub (ioredis): one connection publishes, one listens. Both reconnect by themselves
 * (every 0.2 s growing to 2 s); while Redis is away a publish fails at once instead of queueing, and the
 * listener resubscribes when it is back and says so (`reconnected`), so the caches forget what they may
 * have missed. An outage is logged once when it starts and once when it ends.
 */
export class RedisTransport implements Transport {
  readonly shared = true;
  receive: (name: string, payload: string) => void = () => {};
  reconnected: () => void = () => {};
  private readonly publisher: Redis;
  private readonly listener: Redis;
  /** Channels listened to: subscribed again on every (re)connection. */
  private readonly names = new Set<string>();
  private connected = false;
  private readyOnce = false;
  /** The subscriptions under way; the first connection's. */
  private subscribing: Promise<void> = Promise.resolve();
  private firstReady: Promise<void>;
  private markFirstReady: () => void = () => {};
  private down = false;
  private closing = false;

  constructor(
    url: string,
    private readonly log: FastifyBaseLogger,
  ) {
    const options: RedisOptions = {
      lazyConnect: true,
      maxRetriesPerRequest: 1,
      connectTimeout: 5000,
      retryStrategy: (times) => Math.min(200 * times, 2000),
    };
    this.publisher = new Redis(url, { ...options, enableOfflineQueue: false, connectionName: 'transport-console:publish' });
    // subscriptions made before the first connection wait for it
    this.listener = new Redis(url, { ...options, autoResubscribe: false, connectionName: 'transport-console:listen' });
    this.listener.on('message', (channel: string, message: string) => this.receive(channel, message));
    for (const connection of [this.publisher, this.listener]) {
      connection.on('error', (err: Error) => {
        if (this.down || this.closing) return;
        this.down = true;
        this.log.warn(
          { err: err.message, url: redacted(url) },
          'bus (Redis) unreachable: caches fall back to their lifetime, positions stay in this process',
        );
      });
    }
    this.firstReady = new Promise((resolve) => {
      this.markFirstReady = resolve;
    });
    this.listener.on('close', () => {
      this.connected = false;
    });
    this.listener.on('ready', () => {
      this.connected = true;
      if (this.down) this.log.info('bus (Redis) reachable again');
      this.down = false;
      const again = this.readyOnce;
      this.readyOnce = true;
      void this.subscribe([...this.names]).then(() => (again ? this.reconnected() : this.markFirstReady()));
    });
    void this.publisher.connect().catch(() => undefined);
    void this.listener.connect().catch(() => undefined);
  }

  publish(name: string, payload: string): Promise<number> {
    return this.publisher.publish(name, payload);
  }

  listen(name: string): void {
    this.names.add(name);
    if (this.connected) void this.subscribe([name]);
  }

  async ready(): Promise<void> {
    await this.firstReady;
    await this.subscribing;
  }

  private subscribe(names: string[]): Promise<void> {
    if (!names.length) return this.subscribing;
    const done = this.listener.subscribe(...names).then(
      () => undefined,
      (err: Error) => this.log.warn({ err: err.message }, 'bus channels not subscribed (again at the next connection)'),
    );
    this.subscribing = Promise.all([this.subscribing, done]).then(() => undefined);
    return done;
  }

  async close(): Promise<void> {
    this.closing = true;
    this.publisher.disconnect();
    this.listener.disconnect();
  }
}

/** The URL without its password, for logs. */
function redacted(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'redis://?';
  }
}
