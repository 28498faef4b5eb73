import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { BusChannels, BusRequests, Channel, RequestChannel } from './channels';

/** What carries the bus's text messages between processes: Redis, or memory within one process. */
export interface Transport {
  /** Whether other processes can be reached at all (false: the single-process default, nothing leaves). */
  readonly shared: boolean;
  /** Sends to every listener of `name`, this process's own included; resolves to how many listeners got it. */
  publish(name: string, payload: string): Promise<number>;
  /** From now on, messages on `name` come to `receive`. */
  listen(name: string): void;
  /** Where messages come in (set once, by the bus). */
  receive: (name: string, payload: string) => void;
  /** Called when the link came back after a break: what was sent meanwhile is lost to this process. */
  reconnected: () => void;
  /** Resolves once connected and listening to every name asked for so far. */
  ready(): Promise<void>;
  close(): Promise<void>;
}

interface Envelope {
  /** The sending process. */
  o: string;
  /** The message, the question, or the answer (null: not mine). */
  m: unknown;
  /** A question's id (requests and their answers only). */
  i?: string;
}

interface Pending {
  resolve(answer: unknown): void;
  /** Processes that got the question, and how many said "not mine" so far. */
  others: number;
  declined: number;
  timer: NodeJS.Timeout;
}

type Handler<C extends Channel> = (message: BusChannels[C], from: string) => void;
type Responder<R extends RequestChannel> = (
  ask: BusRequests[R]['ask'],
  from: string,
) => BusRequests[R]['answer'] | null | Promise<BusRequests[R]['answer'] | null>;

/**
 * The server processes' bus (docs/deployment.md, "several machines"): typed publish/subscribe over the
 * channels of channels.ts, and questions answered by whichever process they concern. A message never comes
 * back to the process that sent it. A handler that throws is logged and the others still run; a message that
 * cannot be sent (the transport is down) is counted as dropped, never queued: what the bus carries is either
 * repeated soon (positions) or covered by a short cache lifetime (invalidations).
 */
export class Bus {
  readonly origin = randomUUID();
  readonly stats = { published: 0, received: 0, dropped: 0, requests: 0, unanswered: 0 };
  private readonly handlers = new Map<string, Set<(message: unknown, from: string) => void>>();
  private readonly responders = new Map<string, (ask: unknown, from: string) => unknown>();
  private readonly pending = new Map<string, Pending>();
  private readonly reconnectListeners = new Set<() => void>();
  private readonly replyName: string;

  constructor(
    private readonly transport: Transport,
    private readonly prefix: string,
    private readonly log: FastifyBaseLogger,
  ) {
    this.replyName = `${prefix}:reply:${this.origin}`;
    transport.receive = (name, payload) => this.receive(name, payload);
    transport.reconnected = () => {
      for (const listener of this.reconnectListeners) this.guard(() => listener(), 'bus reconnect listener failed');
    };
    if (transport.shared) transport.listen(this.replyName);
  }

  /** Whether messages reach other processes (a bus URL is configured). */
  get shared(): boolean {
    return this.transport.shared;
  }

  publish<C extends Channel>(channel: C, message: BusChannels[C]): void {
    if (!this.transport.shared) return;
    this.send(`${this.prefix}:${channel}`, { o: this.origin, m: message });
  }

  subscribe<C extends Channel>(channel: C, handler: Handler<C>): () => void {
    const name = `${this.prefix}:${channel}`;
    let set = this.handlers.get(name);
    if (!set) {
      set = new Set();
      this.handlers.set(name, set);
      if (this.transport.shared) this.transport.listen(name);
    }
    const entry = handler as (message: unknown, from: string) => void;
    set.add(entry);
    return () => set.delete(entry);
  }

  /** Answers the questions of `channel` that concern this process; null means "not mine". */
  respond<R extends RequestChannel>(channel: R, responder: Responder<R>): void {
    const name = `${this.prefix}:ask:${channel}`;
    this.responders.set(name, responder as (ask: unknown, from: string) => unknown);
    if (this.transport.shared) this.transport.listen(name);
  }

  /**
   * Asks the other processes; resolves to the answer of the one concerned, or undefined when every other
   * process said "not mine" or none answered within `timeoutMs` (or there are no other processes).
   */
  async request<R extends RequestChannel>(
    channel: R,
    ask: BusRequests[R]['ask'],
    timeoutMs: number,
  ): Promise<BusRequests[R]['answer'] | undefined> {
    if (!this.transport.shared) return undefined;
    this.stats.requests += 1;
    const id = randomUUID();
    const name = `${this.prefix}:ask:${channel}`;
    const answer = new Promise<unknown>((resolve) => {
      const timer = setTimeout(() => this.settle(id, undefined), timeoutMs);
      this.pending.set(id, { resolve, others: Infinity, declined: 0, timer });
    });
    let listeners: number;
    try {
      listeners = await this.transport.publish(name, JSON.stringify({ o: this.origin, i: id, m: { ask, reply: this.replyName } }));
      this.stats.published += 1;
    } catch {
      this.stats.dropped += 1;
      this.settle(id, undefined);
      return undefined;
    }
    const pending = this.pending.get(id);
    if (pending) {
      pending.others = listeners - (this.responders.has(name) ? 1 : 0);
      if (pending.declined >= pending.others) this.settle(id, undefined);
    }
    const result = (await answer) as BusRequests[R]['answer'] | undefined;
    if (result === undefined) this.stats.unanswered += 1;
    return result;
  }

  /**
   * Waits (at most `timeoutMs`) until the bus is connected and listening to every channel subscribed so far;
   * false when it is not by then (it goes on trying: the server starts anyway, on its caches' lifetimes).
   */
  async ready(timeoutMs: number): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), timeoutMs);
    });
    const ready = await Promise.race([this.transport.ready().then(() => true), late]);
    clearTimeout(timer);
    return ready;
  }

  /** After a break in the link: what was published meanwhile never arrived here. */
  onReconnect(listener: () => void): () => void {
    this.reconnectListeners.add(listener);
    return () => this.reconnectListeners.delete(listener);
  }

  async close(): Promise<void> {
    for (const id of [...this.pending.keys()]) this.settle(id, undefined);
    await this.transport.close();
  }

  private send(name: string, envelope: Envelope): void {
    this.transport.publish(name, JSON.stringify(envelope)).then(
      () => {
        this.stats.published += 1;
      },
      () => {
        this.stats.dropped += 1;
      },
    );
  }

  private receive(name: string, payload: string): void {
    let envelope: Envelope;
    try {
      envelope = JSON.parse(payload) as Envelope;
    } catch {
      this.log.warn({ channel: name }, 'bus message not JSON, ignored');
      return;
    }
    if (typeof envelope?.o !== 'string' || envelope.o === this.origin) return;
    this.stats.received += 1;
    if (name === this.replyName) {
      if (typeof envelope.i === 'string') this.reply(envelope.i, envelope.m);
      return;
    }
    const responder = this.responders.get(name);
    if (responder) {
      const { ask, reply } = (envelope.m ?? {}) as { ask?: unknown; reply?: unknown };
      if (typeof envelope.i !== 'string' || typeof reply !== 'string') return;
      const id = envelope.i;
      Promise.resolve()
        .then(() => responder(ask, envelope.o))
        .catch((err: unknown) => {
          this.log.warn({ err, channel: name }, 'bus question not answered');
          return null;
        })
        .then((answer) => this.send(reply, { o: this.origin, i: id, m: answer ?? null }));
      return;
    }
    for (const handler of this.handlers.get(name) ?? [])
      this.guard(() => handler(envelope.m, envelope.o), `bus message on ${name} not handled`);
  }

  private reply(id: string, answer: unknown): void {
    const pending = this.pending.get(id);
    if (!pending) return;
    if (answer !== null && answer !== undefined) {
      this.settle(id, answer);
      return;
    }
    pending.declined += 1;
    if (pending.declined >= pending.others) this.settle(id, undefined);
  }

  private settle(id: string, answer: unknown): void {
    const pending = this.pending.get(id);
    if (!pending) return;
    this.pending.delete(id);
    clearTimeout(pending.timer);
    pending.resolve(answer);
  }

  private guard(work: () => void, failure: string): void {
    try {
      work();
    } catch (err) {
      this.log.warn({ err }, failure);
    }
  }
}

/**
 * Processes joined in memory: the single-process default (a network of one, where nothing is sent), or
 * several apps in one test process sharing a network.
 */
export class MemoryNetwork {
  private readonly members = new Set<MemoryTransport>();

  /** A transport on this network; `shared` says whether it is meant to reach others (false for the default). */
  join(shared = true): MemoryTransport {
    const transport = new MemoryTransport(this, shared);
    this.members.add(transport);
    return transport;
  }

  leave(transport: MemoryTransport): void {
    this.members.delete(transport);
  }

  deliver(name: string, payload: string): number {
    let count = 0;
    for (const member of this.members) {
      if (!member.listens(name)) continue;
      count += 1;
      // later, as a message from another process would come
      setImmediate(() => member.receive(name, payload));
    }
    return count;
  }
}

export class MemoryTransport implements Transport {
  private readonly names = new Set<string>();
  receive: (name: string, payload: string) => void = () => {};
  reconnected: () => void = () => {};

  constructor(
    private readonly network: MemoryNetwork,
    readonly shared: boolean,
  ) {}

  listens(name: string): boolean {
    return this.names.has(name);
  }

  async publish(name: string, payload: string): Promise<number> {
    return this.network.deliver(name, payload);
  }

  listen(name: string): void {
    this.names.add(name);
  }

  async ready(): Promise<void> {}

  async close(): Promise<void> {
    this.network.leave(this);
  }
}
