import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/types';
import { UNFENCED, type Fence, type Lease } from '../jobs/leases';
import type { EventsWriter, SoftwareEvent } from '../journals/eventsWriter';
import { operatorMinuteOfDay } from '../platform/operatorDay';
import { ACT, CC, CT, parameterValue, type CommandData } from '../telemetry/egts/commands';
import type { CommandConfirmation, CommandLinks } from '../telemetry/egts/terminalLinks';
import { COMMAND_REASONS as REASON, COMMAND_STATUS as S } from '../../shared/equipment/commandStatus';
import { parameterCommands, type ParameterValues } from '../../shared/equipment/parameters';
import type { EquipmentConfig } from './config';

/** SID of our commands: the platform as the sender (terminals copy it into their confirmations). */
export const PLATFORM_SID = 1;

interface AppliedRow {
  id: number;
  vehicle_id: number;
  configuration_id: number;
  configuration: string;
}
/** Below this many final commands the error share of phase 2 is not judged yet. */
const MIN_JUDGED = 10;

export interface DispatcherDeps {
  db: Db;
  /** The whole fleet's terminals (FleetLinks): with several processes a terminal may be connected to another. */
  links: CommandLinks;
  events: EventsWriter;
  log: FastifyBaseLogger;
  config: EquipmentConfig;
  /** One process of several moves the rollouts on: a pass runs only while it holds this. */
  lease?: Lease;
  now?: () => number;
}

interface RolloutRow {
  id: number;
  configuration_id: number;
  configuration: string;
  group_name: string;
  phase: number;
  error_threshold: number;
  threshold_overridden: boolean;
  window_from: number | null;
  window_to: number | null;
  max_attempts: number;
  parameters: ParameterValues;
}

interface PhaseCounts {
  phase: number;
  total: number;
  open: number;
  retrying: number;
  errors: number;
  performed: number;
  created: number;
}

/** Whether minute-of-day `m` is inside [from, to) (wrapping midnight when from > to); no window = always. */
export function inWindow(minute: number, from: number | null, to: number | null): boolean {
  if (from === null || to === null || from === to) return true;
  return from < to ? minute >= from && minute < to : minute >= from || minute < to;
}

/** Retry delay after the `attempts`-th failed attempt: base, 2×base, 4×base… */
export const retryDelay = (baseMs: number, attempts: number): number => baseMs * 2 ** Math.max(0, attempts - 1);

/**
 * Moves the commands of running rollouts through their statuses (hawkBit's "deployment" of actions per
 * target): admits the next phase, sends due commands to terminals that are online (EGTS_SR_COMMAND_DATA over
 * the terminal's own connection), marks those of offline terminals waiting and sends them when the terminal
 * comes back, applies confirmations, times out unanswered commands and retries errors by the policy. Its
 * state is the database (conditional UPDATEs), except the parameters still awaited per sent command.
 */
export class CommandDispatcher {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | null = null;
  private confirmations: CommandConfirmation[] = [];
  /** Sent commands: the codes (CCD) still unconfirmed. */
  private readonly awaited = new Map<number, Set<number>>();
  /** Vehicles whose terminal came online since the last tick: their waiting commands go out at once. */
  private readonly reconnected = new Set<number>();
  private lastWaitingSweep = 0;
  private readonly unsubscribe: (() => void)[] = [];
  readonly stats = { sent: 0, performed: 0, errors: 0, timeouts: 0, ticks: 0 };
  readonly now: () => number;

  constructor(private readonly deps: DispatcherDeps) {
    this.now = deps.now ?? Date.now;
    // while another process holds the lease, it collects these (they come to it over the bus)
    const mine = () => !deps.lease || deps.lease.held;
    this.unsubscribe.push(
      deps.links.onConfirmation((list) => {
        if (mine()) this.confirmations.push(...list);
      }),
      deps.links.onAttached((vehicleId) => {
        if (mine()) this.reconnected.add(vehicleId);
      }),
    );
  }

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(
      () => void this.tick().catch((err) => this.deps.log.warn({ err }, 'command dispatcher tick failed')),
      this.deps.config.tickMs,
    );
    this.timer.unref();
  }

  /** Something changed (a rollout started, resumed): a pass now rather than at the next tick. */
  wake(): void {
    if (this.timer) void this.tick().catch((err) => this.deps.log.warn({ err }, 'command dispatcher pass failed'));
  }

  /** No more passes (the lease went to another process); the pass under way is waited for. */
  async halt(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.running?.catch(() => undefined);
  }

  async stop(): Promise<void> {
    await this.halt();
    for (const off of this.unsubscribe.splice(0)) off();
  }

  /** One pass; a pass still running is waited for instead of overlapped. */
  tick(now = this.now()): Promise<void> {
    if (this.running) return this.running;
    if (this.deps.lease && !this.deps.lease.held) return Promise.resolve();
    this.running = this.pass(now).finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private async pass(now: number): Promise<void> {
    this.stats.ticks += 1;
    // the rollouts' lease at the generation this pass starts with: checked again before each batch is sent
    const fence = this.deps.lease?.fence() ?? UNFENCED;
    await this.applyConfirmations(now);
    await this.timeOut(now);
    await this.retryDue(now);
    const rollouts = await this.deps.db.query<RolloutRow>(
      `select r.id, r.configuration_id, c.name || ' v' || c.version as configuration, r.group_name, r.phase, r.error_threshold,
              r.threshold_overridden, r.window_from, r.window_to, r.max_attempts, c.parameters
         from mnt.rollout r join mnt.configuration c on c.id = r.configuration_id where r.state = 'running' order by r.id`,
    );
    if (!rollouts.length) return;
    const minute = operatorMinuteOfDay(now, this.deps.config.tzOffsetMinutes);
    for (const rollout of rollouts) {
      if (await this.advance(rollout, now)) continue;
      if (inWindow(minute, rollout.window_from, rollout.window_to)) await this.send(rollout, now, fence);
    }
  }

  /** Phase and threshold rules; true when the rollout stopped running (paused or finished). */
  private async advance(rollout: RolloutRow, now: number): Promise<boolean> {
    const counts = await this.deps.db.query<PhaseCounts>(
      `select phase, count(*)::int as total,
              count(*) filter (where status in (1, 2, 3, 5))::int as open,
              count(*) filter (where retry_at is not null)::int as retrying,
              count(*) filter (where status in (11, 14) and retry_at is null)::int as errors,
              count(*) filter (where status = 6)::int as performed,
              count(*) filter (where status = 1)::int as created
         from mnt.command where rollout_id = $1 group by phase`,
      [rollout.id],
    );
    const first = counts.find((c) => c.phase === 1);
    const second = counts.find((c) => c.phase === 2);
    const share = (c: { errors: number; performed: number }) => (c.errors + c.performed ? (100 * c.errors) / (c.errors + c.performed) : 0);
    const over = (c: { errors: number; performed: number }) =>
      !rollout.threshold_overridden && rollout.error_threshold < 100 && share(c) >= rollout.error_threshold;
    if (rollout.phase === 1 && first && first.open + first.retrying === 0) {
      if (second && second.created > 0 && over(first)) {
        return this.pause(
          rollout,
          now,
          `Доля ошибок первой очереди ${share(first).toFixed(1)} % не ниже порога ${rollout.error_threshold} %`,
        );
      }
      await this.deps.db.query(
        `with moved as (update mnt.command set status = ${S.queuing}, status_at = $2 where rollout_id = $1 and phase = 2 and status = ${S.created} returning 1)
         update mnt.rollout set phase = 2 where id = $1`,
        [rollout.id, new Date(now).toISOString()],
      );
      rollout.phase = 2;
      if (second?.created)
        await this.journal([
          {
            kind: 'mnt_rollout_phase',
            message: `Развёртывание №${rollout.id} (${rollout.configuration}, группа «${rollout.group_name}»): вторая очередь, ${second.created} терминалов`,
            details: { rolloutId: rollout.id },
          },
        ]);
      return false;
    }
    if (rollout.phase === 2) {
      const all = counts.reduce(
        (sum, c) => ({ open: sum.open + c.open + c.retrying, errors: sum.errors + c.errors, performed: sum.performed + c.performed }),
        { open: 0, errors: 0, performed: 0 },
      );
      if (second && second.errors + second.performed >= MIN_JUDGED && second.open + second.retrying > 0 && over(second)) {
        return this.pause(rollout, now, `Доля ошибок ${share(second).toFixed(1)} % не ниже порога ${rollout.error_threshold} %`);
      }
      if (all.open === 0) {
        const updated = await this.deps.db.query(
          `update mnt.rollout set state = 'finished', finished_at = $2 where id = $1 and state = 'running' returning id`,
          [rollout.id, new Date(now).toISOString()],
        );
        if (updated.length) {
          await this.journal([
            {
              kind: 'mnt_rollout_finished',
              severity: all.errors ? 'warning' : 'info',
              message: `Развёртывание №${rollout.id} (${rollout.configuration}, группа «${rollout.group_name}») завершено: выполнено ${all.performed}, ошибок ${all.errors}`,
              details: { rolloutId: rollout.id, performed: all.performed, errors: all.errors },
            },
          ]);
        }
        return true;
      }
    }
    return false;
  }

  private async pause(rollout: RolloutRow, now: number, reason: string): Promise<boolean> {
    const updated = await this.deps.db.query(
      `update mnt.rollout set state = 'paused', pause_reason = $2 where id = $1 and state = 'running' returning id`,
      [rollout.id, reason],
    );
    if (updated.length) {
      await this.journal([
        {
          kind: 'mnt_rollout_paused',
          severity: 'warning',
          message: `Развёртывание №${rollout.id} приостановлено: ${reason}`,
          details: { rolloutId: rollout.id, at: new Date(now).toISOString() },
        },
      ]);
    }
    return true;
  }

  /** The EGTS commands of a rollout's configuration for command `cid`. */
  static commandsOf(cid: number, parameters: ParameterValues): CommandData[] {
    return parameterCommands(parameters).map(({ ccd, value }) => {
      const { data, sz, chs } = parameterValue(value);
      return { ct: CT.COM, cct: CC.OK, cid, sid: PLATFORM_SID, chs, adr: 0, act: ACT.SET, sz, ccd, data };
    });
  }

  /**
   * Due commands (queuing, and waiting ones whose terminal came back) go to online terminals; the others
   * wait. All waiting commands are looked at again every 30 s, in case a terminal came back unnoticed.
   */
  private async send(rollout: RolloutRow, now: number, fence: Fence): Promise<void> {
    const sweep = now - this.lastWaitingSweep > 30_000;
    if (sweep) this.lastWaitingSweep = now;
    const back = [...this.reconnected];
    const due = await this.deps.db.query<{ id: number; vehicle_id: number; status: number }>(
      `select id, vehicle_id, status from mnt.command
        where rollout_id = $1 and (status = ${S.queuing} or (status = ${S.waiting} and ($3 or vehicle_id = any($4::int[]))))
        order by status, id limit $2`,
      [rollout.id, this.deps.config.sendPerTick, sweep, back],
    );
    if (!due.length) return;
    // A pass that outlived its lease sends nothing more: the new holder sends these (a command goes out once).
    // Only the send is fenced, never the record of what was sent, which stays true whatever the lease.
    await this.deps.db.transaction(fence);
    const sent: number[] = [];
    const waiting: number[] = [];
    for (const command of due) {
      if (!this.deps.links.online(command.vehicle_id)) {
        if (command.status !== S.waiting) waiting.push(command.id);
        continue;
      }
      const commands = CommandDispatcher.commandsOf(command.id, rollout.parameters);
      this.awaited.set(command.id, new Set(commands.map((c) => c.ccd!)));
      if (this.deps.links.send(command.vehicle_id, commands)) sent.push(command.id);
      else {
        this.awaited.delete(command.id);
        if (command.status !== S.waiting) waiting.push(command.id);
      }
    }
    const at = new Date(now).toISOString();
    if (sent.length) {
      this.stats.sent += sent.length;
      await this.deps.db.query(
        `update mnt.command set status = ${S.connecting}, reason = null, attempts = attempts + 1, sent_at = $2, status_at = $2, deadline = $3
          where id = any($1::int[]) and status in (${S.queuing}, ${S.waiting})`,
        [sent, at, new Date(now + this.deps.config.commandTimeoutMs).toISOString()],
      );
    }
    if (waiting.length) {
      await this.deps.db.query(
        `update mnt.command set status = ${S.waiting}, status_at = $2 where id = any($1::int[]) and status = ${S.queuing}`,
        [waiting, at],
      );
    }
    for (const vehicleId of back) this.reconnected.delete(vehicleId);
  }

  /** Confirmations in: all parameters confirmed → performed; a refusal → an error by its type. */
  private async applyConfirmations(now: number): Promise<void> {
    if (!this.confirmations.length) return;
    const batch = this.confirmations;
    this.confirmations = [];
    let performed: number[] = [];
    const failed = new Map<number, { reason: string; status: number; retry: boolean }>();
    for (const c of batch) {
      if (c.cct === CC.INPROG) continue;
      const awaited = this.awaited.get(c.cid);
      if (c.cct === CC.OK) {
        // After a restart nothing is awaited in memory: a confirmation then counts for the whole command.
        if (awaited) {
          awaited.delete(c.ccd);
          if (awaited.size > 0) continue;
        }
        this.awaited.delete(c.cid);
        performed.push(c.cid);
        continue;
      }
      this.awaited.delete(c.cid);
      if (failed.has(c.cid)) continue;
      if (c.cct === CC.ILL) failed.set(c.cid, { reason: REASON.illegal, status: S.configurationError, retry: false });
      else if (c.cct === CC.NFOUND) failed.set(c.cid, { reason: REASON.unknown, status: S.configurationError, retry: false });
      else if (c.cct === CC.DEL) failed.set(c.cid, { reason: REASON.deleted, status: S.error, retry: true });
      else failed.set(c.cid, { reason: REASON.refused, status: S.error, retry: true });
    }
    // One refused parameter fails the whole command, whatever order its confirmations came in.
    performed = performed.filter((cid) => !failed.has(cid));
    const at = new Date(now).toISOString();
    const events: SoftwareEvent[] = [];
    if (performed.length) {
      const { done, afterCancel } = await this.deps.db.transaction(async (tx) => {
        // A confirmation that comes after the time-out still means the terminal applied it: performed.
        const done = await tx.query<AppliedRow>(
          `update mnt.command c set status = ${S.performed}, reason = null, retry_at = null, status_at = $2
             from mnt.rollout r join mnt.configuration k on k.id = r.configuration_id
            where c.id = any($1::int[]) and r.id = c.rollout_id
              and (c.status = ${S.connecting} or (c.status = ${S.error} and c.reason = $3))
            returning c.id, c.vehicle_id, r.configuration_id, k.name || ' v' || k.version as configuration`,
          [performed, at, REASON.timeout],
        );
        // After a cancel the command stays cancelled (the rollout's counts do not move), but the terminal
        // runs the configuration now, and the fleet's share per version must say so.
        const afterCancel = await tx.query<AppliedRow>(
          `select c.id, c.vehicle_id, r.configuration_id, k.name || ' v' || k.version as configuration
             from mnt.command c join mnt.rollout r on r.id = c.rollout_id join mnt.configuration k on k.id = r.configuration_id
            where c.id = any($1::int[]) and c.status = ${S.error} and c.reason = $2`,
          [performed, REASON.cancelled],
        );
        const applied = [...done, ...afterCancel];
        if (applied.length) {
          await tx.query(
            `insert into mnt.terminal_config (vehicle_id, configuration_id, applied_at)
             select * from unnest($1::int[], $2::int[], array_fill($3::timestamptz, array[cardinality($1::int[])]))
             on conflict (vehicle_id) do update set configuration_id = excluded.configuration_id, applied_at = excluded.applied_at`,
            [applied.map((r) => r.vehicle_id), applied.map((r) => r.configuration_id), at],
          );
        }
        return { done, afterCancel };
      });
      this.stats.performed += done.length;
      for (const row of done)
        events.push({
          vehicleId: row.vehicle_id,
          kind: 'mnt_command_performed',
          message: `Конфигурация ${row.configuration} применена терминалом (команда №${row.id})`,
          details: { commandId: row.id },
        });
      for (const row of afterCancel) {
        events.push({
          vehicleId: row.vehicle_id,
          kind: 'mnt_command_applied_after_cancel',
          severity: 'warning',
          message: `Конфигурация ${row.configuration} применена терминалом после отмены развёртывания (команда №${row.id})`,
          details: { commandId: row.id },
        });
      }
    }
    if (failed.size) {
      const ids = [...failed.keys()];
      const rows = await this.deps.db.query<{ id: number; vehicle_id: number; attempts: number; max_attempts: number }>(
        `select c.id, c.vehicle_id, c.attempts, r.max_attempts from mnt.command c join mnt.rollout r on r.id = c.rollout_id
          where c.id = any($1::int[]) and c.status = ${S.connecting}`,
        [ids],
      );
      await this.fail(
        rows.map((row) => ({ ...row, ...failed.get(row.id)! })),
        now,
        events,
      );
    }
    await this.journal(events);
  }

  /** Errors, each with a retry time while attempts are left (and the error is worth retrying). */
  private async fail(
    rows: { id: number; vehicle_id: number; attempts: number; max_attempts: number; reason: string; status: number; retry: boolean }[],
    now: number,
    events: SoftwareEvent[],
  ): Promise<void> {
    if (!rows.length) return;
    this.stats.errors += rows.length;
    const retryAt = rows.map((r) =>
      r.retry && r.attempts < r.max_attempts ? new Date(now + retryDelay(this.deps.config.retryBaseMs, r.attempts)).toISOString() : null,
    );
    await this.deps.db.query(
      `update mnt.command c set status = x.status, reason = x.reason, retry_at = x.retry_at, status_at = $5
         from unnest($1::int[], $2::int[], $3::text[], $4::timestamptz[]) as x(id, status, reason, retry_at)
        where c.id = x.id and c.status = ${S.connecting}`,
      [rows.map((r) => r.id), rows.map((r) => r.status), rows.map((r) => r.reason), retryAt, new Date(now).toISOString()],
    );
    rows.forEach((r, i) =>
      events.push({
        vehicleId: r.vehicle_id,
        kind: 'mnt_command_error',
        severity: retryAt[i] ? 'warning' : 'error',
        message: `Команда №${r.id}: ${r.reason}${retryAt[i] ? `; повтор (попытка ${r.attempts + 1} из ${r.max_attempts})` : ''}`,
        details: { commandId: r.id, attempts: r.attempts, retryAt: retryAt[i] },
      }),
    );
  }

  private async timeOut(now: number): Promise<void> {
    const rows = await this.deps.db.query<{ id: number; vehicle_id: number; attempts: number; max_attempts: number }>(
      `select c.id, c.vehicle_id, c.attempts, r.max_attempts from mnt.command c join mnt.rollout r on r.id = c.rollout_id
        where c.status = ${S.connecting} and c.deadline < $1 limit 5000`,
      [new Date(now).toISOString()],
    );
    if (!rows.length) return;
    this.stats.timeouts += rows.length;
    for (const row of rows) this.awaited.delete(row.id);
    const events: SoftwareEvent[] = [];
    await this.fail(
      rows.map((row) => ({ ...row, reason: REASON.timeout, status: S.error, retry: true })),
      now,
      events,
    );
    await this.journal(events);
  }

  /** Errors whose retry time came: queued again (of running rollouts only; a paused one keeps them). */
  private async retryDue(now: number): Promise<void> {
    await this.deps.db.query(
      `update mnt.command c set status = ${S.queuing}, retry_at = null, status_at = $1
         from mnt.rollout r where r.id = c.rollout_id and r.state = 'running' and c.retry_at is not null and c.retry_at <= $1`,
      [new Date(now).toISOString()],
    );
  }

  private async journal(events: SoftwareEvent[]): Promise<void> {
    if (!events.length) return;
    await this.deps.events.softwareEvents(events).catch((err) => this.deps.log.warn({ err }, 'remote configuration events not journaled'));
  }
}
