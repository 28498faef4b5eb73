// Simulated operators against a running server, for the load and memory benchmarks: each logs in, keeps a geo
// stream of the whole city open (the live map), and every 1–3 s (a person's pace) does one action of a weighted
// mix: a handbook list with a filter or a sort, a journal page, a report over the last days, a handbook edit (an
// existing stop's note saved). Counts requests, latencies per kind, errors (any answer other than 2xx, network
// failures, a stream that ended).
import { setTimeout as delay } from 'node:timers/promises';
import { serializeGeoSubscription } from '../../src/shared/map';

export type ActionKind = 'handbook list' | 'journal list' | 'report' | 'handbook edit';
export type Kind = 'login' | ActionKind;
/** Share of each action in an operator's mix (normalised; a kind left out is never done). */
export type Mix = Partial<Record<ActionKind, number>>;

const CITY: [number, number, number, number] = [59.75, 29.95, 60.1, 30.65];
const HANDBOOK_LISTS: {
  type: string;
  filters?: Record<string, unknown>;
  sort?: { field: string; order: 'ASC' | 'DESC' };
  page?: number;
}[] = [
  { type: 'stops' },
  { type: 'stops', filters: { stop_name: 'про' }, sort: { field: 'stop_name', order: 'ASC' } },
  { type: 'stops', page: 5 },
  { type: 'routes', sort: { field: 'route_short_name', order: 'ASC' } },
  { type: 'vehicles', sort: { field: 'depot_number', order: 'DESC' } },
  { type: 'vehicles', page: 3 },
  { type: 'driver', sort: { field: 'id', order: 'ASC' } },
  { type: 'routevariants' },
  { type: 'raspvariants' },
];
const JOURNALS = ['useractions', 'eventsts', 'eventspo', 'adas'];
/** Reports an operator opens, each over the last `days` days (the demo history holds them). */
const REPORTS: { path: string; days: number; step?: string }[] = [
  { path: '/passengers/passage', days: 7, step: 'day' },
  { path: '/passengers/stops', days: 1 },
  { path: '/adas/incidents-dynamic', days: 30, step: 'day' },
  { path: '/passengers/passage', days: 1, step: 'hour' },
];

export class Operators {
  readonly latencies = new Map<Kind, number[]>();
  readonly errors = new Map<string, number>();
  requests = 0;
  streamsOpen = 0;
  streamBytes = 0;
  private tokens: string[] = [];
  private stopIds: number[] = [];
  private running = false;
  private streams: Promise<void>[] = [];
  private actions: Promise<void>[] = [];
  private readonly mix: [ActionKind, number][];

  constructor(
    private readonly base: string,
    mix: Mix,
  ) {
    const total = Object.values(mix).reduce((sum, share) => sum + share, 0);
    let upTo = 0;
    this.mix = Object.entries(mix).map(([kind, share]) => [kind as ActionKind, (upTo += share / total)]);
  }

  get loggedIn(): number {
    return this.tokens.length;
  }

  errorCount(): number {
    return [...this.errors.values()].reduce((a, b) => a + b, 0);
  }

  /** Logs each account in (ten at a time) and reads the stops the edits pick from. */
  async login(accounts: readonly { username: string; password: string }[]): Promise<void> {
    for (let i = 0; i < accounts.length; i += 10) {
      const batch = await Promise.all(
        accounts.slice(i, i + 10).map((account) => this.call('login', '/api/v1/auth/login', undefined, account)),
      );
      for (const answer of batch) if (answer) this.tokens.push(`Bearer ${(answer as { token: string }).token}`);
    }
    if (!this.tokens.length) throw new Error(`no operator could log in: ${[...this.errors.keys()].join('; ')}`);
    const firstPage = (await this.call('handbook list', '/api/table/list', this.tokens[0], {
      config: { type: 'stops' },
      perPage: 1000,
    })) as { list: { stop_id: number }[] } | undefined;
    this.stopIds = firstPage?.list.map((row) => row.stop_id) ?? [];
  }

  /** Opens every operator's map stream, waits for them to be up, then starts their actions. */
  async start(): Promise<void> {
    this.running = true;
    this.streams = this.tokens.map((auth, i) => this.stream(auth, i));
    await delay(3000);
    this.resetLatencies();
    this.actions = this.tokens.map((auth, i) => this.operator(auth, i));
  }

  /** Forgets the latencies so far (the logins and the warm-up); counts go on. */
  resetLatencies(): void {
    for (const list of this.latencies.values()) list.length = 0;
  }

  /** Ends the actions and the streams; resolves with the streams open just before. */
  async stop(): Promise<number> {
    const open = this.streamsOpen;
    this.running = false;
    await Promise.all(this.actions);
    await Promise.all(this.streams);
    return open;
  }

  async call(kind: Kind, path: string, auth: string | undefined, body?: unknown): Promise<unknown> {
    const started = performance.now();
    try {
      const response = await fetch(`${this.base}${path}`, {
        method: body === undefined ? 'GET' : 'POST',
        headers: { ...(auth ? { authorization: auth } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await response.text();
      this.requests += 1;
      if (!this.latencies.has(kind)) this.latencies.set(kind, []);
      this.latencies.get(kind)!.push(performance.now() - started);
      if (response.status >= 300) {
        this.countError(`${kind}: ${response.status} ${text.slice(0, 80)}`);
        return undefined;
      }
      return text ? JSON.parse(text) : undefined;
    } catch (error) {
      this.countError(`${kind}: ${(error as Error).message}`);
      return undefined;
    }
  }

  private countError(what: string): void {
    this.errors.set(what, (this.errors.get(what) ?? 0) + 1);
  }

  private async stream(auth: string, index: number): Promise<void> {
    const q = serializeGeoSubscription({ bounds: CITY, zoom: 11 + (index % 3), vehicles: [] });
    const controller = new AbortController();
    const stop = setInterval(() => {
      if (!this.running) controller.abort();
    }, 500);
    try {
      const response = await fetch(`${this.base}/geoapi/v1/geo/1?q=${encodeURIComponent(q)}`, {
        headers: { authorization: auth },
        signal: controller.signal,
      });
      if (response.status !== 200 || !response.body) {
        this.countError(`geo stream: ${response.status}`);
        return;
      }
      this.streamsOpen += 1;
      try {
        const reader = response.body.getReader();
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          this.streamBytes += value.length;
        }
        if (this.running) this.countError('geo stream: ended by the server');
      } finally {
        this.streamsOpen -= 1;
      }
    } catch (error) {
      if (this.running) this.countError(`geo stream: ${(error as Error).message}`);
    } finally {
      clearInterval(stop);
    }
  }

  private async operator(auth: string, index: number): Promise<void> {
    let n = 0;
    while (this.running) {
      await delay(1000 + Math.random() * 2000);
      if (!this.running) break;
      const roll = Math.random();
      n += 1;
      const kind = this.mix.find(([, upTo]) => roll < upTo)?.[0] ?? this.mix.at(-1)![0];
      if (kind === 'handbook list') {
        const list = HANDBOOK_LISTS[(index + n) % HANDBOOK_LISTS.length];
        await this.call(kind, '/api/table/list', auth, {
          config: { type: list.type },
          filters: list.filters,
          sort: list.sort,
          page: list.page,
        });
      } else if (kind === 'journal list') {
        const journal = JOURNALS[(index + n) % JOURNALS.length];
        const from = new Date(Date.now() - 86_400_000).toISOString();
        await this.call(kind, `/api/v1/journals/${journal}?from=${encodeURIComponent(from)}&recordCount=30`, auth);
      } else if (kind === 'report') {
        const report = REPORTS[(index + n) % REPORTS.length];
        const to = new Date();
        const query = new URLSearchParams({
          from: new Date(to.getTime() - report.days * 86_400_000).toISOString(),
          to: to.toISOString(),
          ...(report.step ? { step: report.step } : {}),
        });
        await this.call(kind, `/api/v1/reports${report.path}?${query}`, auth);
      } else if (this.stopIds.length > 0) {
        const stopId = this.stopIds[(index * 7 + n) % this.stopIds.length];
        const found = (await this.call('handbook list', '/api/table/list', auth, {
          config: { type: 'stops' },
          filters: { stop_id: [stopId] },
        })) as { list?: Record<string, unknown>[] } | undefined;
        const row = found?.list?.[0];
        if (!row) continue;
        await this.call('handbook edit', '/api/table/element/save', auth, {
          config: { type: 'stops' },
          row: {
            stop_id: row.stop_id,
            stop_name: row.stop_name,
            note: `нагрузка ${index}.${n}`,
            stop_lat: row.stop_lat,
            stop_lon: row.stop_lon,
            do_not_update: row.do_not_update,
          },
        });
      }
    }
  }
}
