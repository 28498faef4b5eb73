import type { FastifyBaseLogger } from 'fastify';
import type { Queryable } from '../db/types';

/**
 * peer_address → vehicle id, in memory. A terminal is known by its peer address: the one of its on-board
 * terminal (mgt.dev_mnt) or, failing that, of the vehicle itself (mgt.vehicles). Loaded at start and refreshed
 * periodically so that thousands of connecting terminals never query the database.
 */
export class DeviceIndex {
  private byPeer = new Map<string, number>();
  private timer: NodeJS.Timeout | null = null;
  private loading: Promise<void> | null = null;

  constructor(
    private readonly db: Queryable,
    private readonly log: FastifyBaseLogger,
  ) {}

  get size(): number {
    return this.byPeer.size;
  }

  /** The vehicle of a peer address given as digits (TID, OID, IMEI or the HTTP `device`), if known. */
  vehicleOf(peerAddress: string | number | bigint): number | undefined {
    const key = normalisePeer(peerAddress);
    return key === undefined ? undefined : this.byPeer.get(key);
  }

  async refresh(): Promise<void> {
    if (this.loading) return this.loading;
    this.loading = this.load().finally(() => {
      this.loading = null;
    });
    return this.loading;
  }

  private async load(): Promise<void> {
    // Vehicles first, terminals after: a terminal's address wins over a vehicle row that reuses it.
    const rows = await this.db.query<{ peer: string; vehicle_id: number }>(
      `select peer_address::text as peer, id as vehicle_id, 0 as rank from mgt.vehicles where peer_address is not null
       union all
       select m.peer_address::text, m.vehicle_id, 1 from mgt.dev_mnt m
       order by rank`,
    );
    const next = new Map<string, number>();
    for (const row of rows) next.set(row.peer, row.vehicle_id);
    this.byPeer = next;
  }

  start(intervalMs: number): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.refresh().catch((err) => this.log.warn({ err }, 'device index refresh failed')), intervalMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}

/** Canonical decimal text of a peer address; IMEI strings may come zero-padded or NUL-padded. */
export function normalisePeer(value: string | number | bigint): string | undefined {
  if (typeof value === 'bigint') return value >= 0n ? value.toString() : undefined;
  if (typeof value === 'number') return Number.isSafeInteger(value) && value >= 0 ? String(value) : undefined;
  const digits = value.replace(/\0/g, '').trim();
  if (!/^\d{1,19}$/.test(digits)) return undefined;
  return BigInt(digits).toString();
}

/**
 * The vehicle a unit names by its `device` field (its terminal's id, the peer address) for a sender allowed
 * `allowed` terminals (null: any), or why not (HTTP ingestion of incidents, counts and validations).
 */
export function vehicleOfDevice(
  devices: DeviceIndex,
  raw: unknown,
  allowed: Set<string> | null,
): { vehicleId: number } | { message: string } {
  const device = typeof raw === 'number' ? String(raw) : raw;
  const peer = typeof device === 'string' ? normalisePeer(device) : undefined;
  const vehicleId = peer === undefined ? undefined : devices.vehicleOf(peer);
  if (vehicleId === undefined) return { message: `unknown device ${String(device).slice(0, 40)}` };
  if (allowed && !allowed.has(peer!)) return { message: `device ${peer} is not allowed for this source` };
  return { vehicleId };
}
