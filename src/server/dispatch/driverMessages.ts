import type { FastifyBaseLogger } from 'fastify';
import type { Bus } from '../bus/bus';
import type { Db, Queryable } from '../db/types';
import { runAsServer } from '../db/queryCaller';
import { UNFENCED, type Lease } from '../jobs/leases';
import { CC, CHS, CT, type CommandData } from '../telemetry/egts/commands';
import type { MessageLinks, TerminalMessage } from '../telemetry/egts/terminalLinks';
import { decodeText, encodeCp1251 } from '../telemetry/egts/text';
import type { DispatchService } from './dispatchService';
import { DRIVER_MESSAGE_MS } from './exceptions';

/** SID of our messages: the platform as the sender (as the rollout dispatcher's commands). */
const PLATFORM_SID = 1;
/** Deliveries sent a pass at most. */
const SEND_PER_PASS = 500;

export interface CourierDeps {
  db: Db;
  links: MessageLinks;
  service: DispatchService;
  bus: Bus;
  log: FastifyBaseLogger;
  /** With several processes one moves the deliveries on: a pass runs only while it holds this. */
  lease?: Lease;
  tickMs?: number;
}

/**
 * Moves messages to drivers through their states over the terminals' EGTS commands service, the path remote
 * configuration takes (FleetLinks: this process's connections and, over the bus, the others'): a queued delivery
 * goes out as CT_MSGTO (its id as the CID) once the vehicle's terminal is reachable (sent); the terminal's
 * CT_DELIV makes it delivered and its CT_MSGCONF read; one not delivered by the message's expiry is expired.
 * A driver's CT_MSGFROM is stored in the inbox and raised on the board (`driver_message`) in every process.
 */
export class MessageCourier {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | null = null;
  private inbound: TerminalMessage[] = [];
  private readonly off: (() => void)[] = [];
  readonly stats = { sent: 0, delivered: 0, read: 0, expired: 0, fromDrivers: 0 };

  constructor(private readonly deps: CourierDeps) {
    const mine = () => !deps.lease || deps.lease.held;
    this.off.push(
      deps.links.onMessage((list) => {
        if (!mine()) return;
        this.inbound.push(...list);
        this.wake();
      }),
      deps.links.onAttached(() => {
        if (mine()) this.wake();
      }),
    );
  }

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => this.wake(), this.deps.tickMs ?? 2000);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    for (const off of this.off.splice(0)) off();
    await this.running?.catch(() => undefined);
  }

  /** A pass now (a message was sent, a terminal answered or came back). */
  wake(): void {
    void this.tick().catch((err) => this.deps.log.warn({ err }, 'driver messages pass failed'));
  }

  /** One pass; a pass still running is waited for instead of overlapped. */
  tick(now = Date.now()): Promise<void> {
    if (this.running) return this.running.then(() => this.tick(now));
    if (this.deps.lease && !this.deps.lease.held) return Promise.resolve();
    this.running = runAsServer(() => this.pass(now)).finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private async pass(now: number): Promise<void> {
    const { db } = this.deps;
    // the courier's lease at the generation this pass starts with: checked again before the messages go out
    const fence = this.deps.lease?.fence() ?? UNFENCED;
    const at = new Date(now).toISOString();
    const inbound = this.inbound;
    this.inbound = [];
    for (const m of inbound) {
      const when = new Date(m.at).toISOString();
      if (m.ct === CT.DELIV && m.cct === CC.OK) {
        const done = await db.query(
          `update dispatch.message_delivery set state = 'delivered', delivered_at = $2, state_at = $2 where id = $1 and vehicle_id = $3 and state in ('queued', 'sent', 'expired') returning id`,
          [m.cid, when, m.vehicleId],
        );
        this.stats.delivered += done.length;
      } else if (m.ct === CT.MSGCONF && m.cct === CC.OK) {
        const done = await db.query(
          `update dispatch.message_delivery set state = 'read', read_at = $2, delivered_at = coalesce(delivered_at, $2), state_at = $2
            where id = $1 and vehicle_id = $3 and state <> 'read' returning id`,
          [m.cid, when, m.vehicleId],
        );
        this.stats.read += done.length;
      } else if (m.ct === CT.MSGFROM) {
        const text = decodeText(m.data, m.chs).trim();
        if (!text) continue;
        const [row] = await db.query<{ id: number }>(
          'insert into dispatch.driver_inbox (vehicle_id, text, received_at) values ($1, $2, $3) returning id::int as id',
          [m.vehicleId, text.slice(0, 500), when],
        );
        this.stats.fromDrivers += 1;
        this.deps.service.engine.driverMessage(row.id, m.vehicleId, text, m.at);
        this.deps.bus.publish('dispatch.driverMessage', { id: row.id, vehicleId: m.vehicleId, text, at: m.at });
      }
    }
    const expired = await db.query(
      `update dispatch.message_delivery d set state = 'expired', state_at = $1 from dispatch.driver_message m
        where m.id = d.message_id and d.state in ('queued', 'sent') and m.expires_at <= $1 returning d.id`,
      [at],
    );
    this.stats.expired += expired.length;
    const due = await db.query<{ id: number; vehicle_id: number; text: string }>(
      `select d.id::int as id, d.vehicle_id, m.text from dispatch.message_delivery d join dispatch.driver_message m on m.id = d.message_id
        where d.state = 'queued' order by d.id limit ${SEND_PER_PASS}`,
    );
    // A pass that outlived its lease sends nothing: the new holder sends these (a message goes out once).
    if (due.length) await db.transaction(fence);
    const sent: number[] = [];
    for (const d of due) {
      if (!this.deps.links.online(d.vehicle_id)) continue;
      const command: CommandData = { ct: CT.MSGTO, cct: CC.OK, cid: d.id, sid: PLATFORM_SID, chs: CHS.CP1251, data: encodeCp1251(d.text) };
      if (this.deps.links.send(d.vehicle_id, [command])) sent.push(d.id);
    }
    if (sent.length) {
      await db.query(
        `update dispatch.message_delivery set state = 'sent', sent_at = $2, state_at = $2 where id = any($1::bigint[]) and state = 'queued'`,
        [sent, at],
      );
      this.stats.sent += sent.length;
    }
  }
}

/** The drivers' messages of the last DRIVER_MESSAGE_MS, raised again on the board after a start. */
export async function restoreDriverMessages(db: Queryable, service: DispatchService, now: number): Promise<void> {
  const rows = await db.query<{ id: number; vehicle_id: number; text: string; received_at: Date | string }>(
    'select id::int as id, vehicle_id, text, received_at from dispatch.driver_inbox where received_at > $1 order by id',
    [new Date(now - DRIVER_MESSAGE_MS).toISOString()],
  );
  for (const r of rows) service.engine.driverMessage(r.id, r.vehicle_id, r.text, new Date(r.received_at).getTime());
}
