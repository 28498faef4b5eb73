import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/types';
import type { Lease } from '../jobs/leases';
import { PeriodicJob } from '../jobs/periodicJob';
import type { Notifier } from '../notifications/notifier';
import type { LatestPositions } from '../telemetry/latestPositions';
import { FAULT_CODES, UNIT_KIND_LABELS, type UnitKind } from '../../shared/equipment/units';

/** A vehicle counts as online (its units reporting) while its last position is this young: the map's rule. */
const ONLINE_MS = 300_000;

export interface UnitReport {
  vehicleId: number;
  kind: UnitKind;
  unitId: number;
  at: number;
  /** The unit's fault codes now (empty: healthy). */
  faultCodes: readonly string[];
}

const hash = (n: number, salt: number) => ((Math.imul(n ^ salt, 2654435761) >>> 0) % 10_000) / 10_000;

/**
 * The state of on-board units (mnt.unit_state): last data and fault codes. A terminal's last data is its last
 * position (telemetry); other units report through `report` (their ingestion, the demo). A unit whose fault
 * codes change from none to some raises an equipment-fault notification (the existing notifier: the bell of
 * those who may read /vehicle-diagnostic). With the demo fleet, the units of online vehicles report with
 * them, a few units stay silent, and faults come and go.
 */
export class Diagnostics {
  private readonly job: PeriodicJob;
  readonly stats = { passes: 0, notified: 0 };

  constructor(
    private readonly db: Db,
    private readonly notifier: Notifier,
    private readonly latest: LatestPositions,
    private readonly log: FastifyBaseLogger,
    /** `lease`: one process of several runs the passes. */
    private readonly options: { demo: boolean; everyMs: number; random?: () => number; lease?: Lease },
  ) {
    this.job = new PeriodicJob(() => this.pass(), log, 'equipment diagnostics pass failed', options.lease);
  }

  private get random(): () => number {
    return this.options.random ?? Math.random;
  }

  start(): void {
    this.job.start(this.options.everyMs, 0);
  }

  stop(): Promise<void> {
    return this.job.stop();
  }

  /** Units' reports in: last data and fault codes; a new fault rings the bell. */
  async report(reports: readonly UnitReport[]): Promise<number> {
    if (!reports.length) return 0;
    const rows = await this.db.query<{
      vehicle_id: number;
      unit_kind: UnitKind;
      unit_id: number;
      fault_codes: string[];
      depot_number: number | null;
      unit_name: string | null;
    }>(
      `with x as (select * from jsonb_to_recordset($1::jsonb) as x(v int, k text, u int, at timestamptz, f text[])),
       old as (select s.* from mnt.unit_state s join x on s.vehicle_id = x.v and s.unit_kind = x.k and s.unit_id = x.u),
       up as (
         insert into mnt.unit_state (vehicle_id, unit_kind, unit_id, last_data_at, fault_codes, fault_since)
         select x.v, x.k, x.u, x.at, x.f, case when cardinality(x.f) > 0 then x.at end from x
         on conflict (vehicle_id, unit_kind, unit_id) do update set
           last_data_at = greatest(mnt.unit_state.last_data_at, excluded.last_data_at),
           fault_codes = excluded.fault_codes,
           fault_since = case when cardinality(excluded.fault_codes) = 0 then null
                              when cardinality(mnt.unit_state.fault_codes) = 0 then excluded.fault_since
                              else mnt.unit_state.fault_since end
         returning vehicle_id, unit_kind, unit_id, fault_codes)
       select up.vehicle_id, up.unit_kind, up.unit_id, up.fault_codes, v.depot_number, un.unit_name
         from up left join old on old.vehicle_id = up.vehicle_id and old.unit_kind = up.unit_kind and old.unit_id = up.unit_id
         left join mgt.vehicles v on v.id = up.vehicle_id
         left join mnt.unit un on un.vehicle_id = up.vehicle_id and un.unit_kind = up.unit_kind and un.unit_id = up.unit_id
        where cardinality(up.fault_codes) > 0 and cardinality(coalesce(old.fault_codes, '{}')) = 0`,
      [JSON.stringify(reports.map((r) => ({ v: r.vehicleId, k: r.kind, u: r.unitId, at: new Date(r.at).toISOString(), f: r.faultCodes })))],
    );
    for (const row of rows) {
      const detail = row.fault_codes.map((code) => `${code}: ${FAULT_CODES[code]?.text ?? 'неизвестный код'}`).join('; ');
      await this.notifier
        .equipmentFault({
          vehicleId: row.vehicle_id,
          depotNumber: row.depot_number,
          equipment: `${UNIT_KIND_LABELS[row.unit_kind]}${row.unit_name ? ` «${row.unit_name}»` : ''}`,
          detail,
        })
        .catch((err) => this.log.warn({ err }, 'equipment fault not notified'));
    }
    this.stats.notified += rows.length;
    return rows.length;
  }

  /** Terminals' last data from the latest positions; with the demo, the other units and the faults too. */
  async pass(now = Date.now()): Promise<void> {
    this.stats.passes += 1;
    const online: number[] = [];
    const lastOf = new Map<number, number>();
    for (const [vehicleId, position] of this.latest.entries()) {
      lastOf.set(vehicleId, position.time);
      if (now - position.time < ONLINE_MS) online.push(vehicleId);
    }
    const terminals = await this.db.query<{ vehicle_id: number; unit_id: number; fault_codes: string[] | null }>(
      `select u.vehicle_id, u.unit_id, s.fault_codes from mnt.unit u
         left join mnt.unit_state s on s.vehicle_id = u.vehicle_id and s.unit_kind = u.unit_kind and s.unit_id = u.unit_id
        where u.unit_kind = 'terminal' and u.vehicle_id = any($1::int[])`,
      [[...lastOf.keys()]],
    );
    const reports: UnitReport[] = terminals.map((t) => ({
      vehicleId: t.vehicle_id,
      kind: 'terminal',
      unitId: t.unit_id,
      at: lastOf.get(t.vehicle_id)!,
      faultCodes: t.fault_codes ?? [],
    }));
    if (this.options.demo) reports.push(...(await this.demoReports(online, now)));
    for (let i = 0; i < reports.length; i += 2000) await this.report(reports.slice(i, i + 2000));
  }

  /**
   * The demo fleet's units: those of online vehicles report now, except one unit in 60 that stays silent
   * (stale, or never heard from); about one unit in 400 of an online vehicle develops a fault per hour
   * and a fault clears after about two hours on average, so some faults are always open and they change.
   */
  private async demoReports(online: number[], now: number): Promise<UnitReport[]> {
    if (!online.length) return [];
    const units = await this.db.query<{
      vehicle_id: number;
      unit_kind: UnitKind;
      unit_id: number;
      disabled: boolean;
      fault_codes: string[] | null;
      fault_since: string | null;
    }>(
      `select u.vehicle_id, u.unit_kind, u.unit_id, u.disabled, s.fault_codes, s.fault_since from mnt.unit u
         left join mnt.unit_state s on s.vehicle_id = u.vehicle_id and s.unit_kind = u.unit_kind and s.unit_id = u.unit_id
        where u.unit_kind <> 'terminal' and u.vehicle_id = any($1::int[])`,
      [online],
    );
    const passHours = this.options.everyMs / 3_600_000;
    const out: UnitReport[] = [];
    for (const unit of units) {
      if (unit.disabled) continue;
      if (hash(unit.unit_id, unit.unit_kind.length) < 1 / 60) continue;
      let codes = unit.fault_codes ?? [];
      if (codes.length && this.random() < passHours / 2) codes = [];
      else if (!codes.length && this.random() < passHours / 400) {
        const candidates = Object.entries(FAULT_CODES)
          .filter(([, f]) => f.kinds.includes(unit.unit_kind))
          .map(([code]) => code);
        if (candidates.length) codes = [candidates[Math.floor(this.random() * candidates.length)]];
      }
      out.push({ vehicleId: unit.vehicle_id, kind: unit.unit_kind, unitId: unit.unit_id, at: now, faultCodes: codes });
    }
    return out;
  }

  /**
   * A fresh demo starts with faults already open (since up to 6 hours ago) on about 2 % of the units, and
   * without a bell for each: they are the state found, not news.
   */
  async seedDemoFaults(now = Date.now()): Promise<number> {
    const [{ open }] = await this.db.query<{ open: number }>(
      `select count(*)::int as open from mnt.unit_state where cardinality(fault_codes) > 0`,
    );
    if (open > 0) return 0;
    // Every 50th unit in a scrambled order, at least three (a small demo fleet shows faults too).
    const all = await this.db.query<{ vehicle_id: number; unit_kind: UnitKind; unit_id: number }>(
      `select vehicle_id, unit_kind, unit_id from mnt.unit where not disabled and unit_kind <> 'terminal'
        order by (unit_id * 7919 + length(unit_kind) * 104729) % 1000, unit_id`,
    );
    const units = all.slice(0, Math.max(3, Math.round(all.length / 50)));
    if (!units.length) return 0;
    const rows = units.map((u, i) => {
      const candidates = Object.entries(FAULT_CODES)
        .filter(([, f]) => f.kinds.includes(u.unit_kind))
        .map(([code]) => code);
      const since = new Date(now - ((i * 7_919_000) % (6 * 3_600_000)) - 60_000).toISOString();
      return { v: u.vehicle_id, k: u.unit_kind, u: u.unit_id, f: [candidates[i % candidates.length]], s: since };
    });
    await this.db.query(
      `insert into mnt.unit_state (vehicle_id, unit_kind, unit_id, last_data_at, fault_codes, fault_since)
       select x.v, x.k, x.u, x.s, x.f, x.s from jsonb_to_recordset($1::jsonb) as x(v int, k text, u int, f text[], s timestamptz)
       on conflict (vehicle_id, unit_kind, unit_id) do update set fault_codes = excluded.fault_codes, fault_since = excluded.fault_since`,
      [JSON.stringify(rows)],
    );
    return rows.length;
  }
}
