import { EventEmitter } from 'node:events';
import type { LatestPositions } from './latestPositions';
import type { RecentFixes } from './recentFixes';
import type { TrackWriter } from './trackWriter';
import type { IngestOutcome, LatestPosition, Position } from './types';
import { positionProblems, type ValidationLimits } from './validate';

/** A vehicle whose latest state moved, as the geo stream receives it. */
export interface PositionChange extends LatestPosition {
  vehicleId: number;
}

export interface PipelineEvents {
  /**
   * Latest states that changed in one ingest call (one array per call keeps the fan-out cheap); `remote`: they
   * came from another server process over the bus.
   */
  positions: [changes: PositionChange[], remote: boolean];
  /** Every position accepted in one ingest call, the superseded ones of a batch too (the live timetable reads each fix). */
  accepted: [positions: readonly Position[], remote: boolean];
}

/**
 * The one path every position takes (EGTS, HTTP, the simulator): validate, drop duplicates, update the latest
 * state, append to the track spool, tell subscribers. `ingest` is synchronous and touches no database: the map
 * moves at once, and the outcome's `durable` says when the positions are on disk and may be acknowledged
 * (tens of milliseconds, whatever the database is doing); the writer moves them to the database in its own time.
 */
export class TelemetryPipeline extends EventEmitter<PipelineEvents> {
  private counters = { accepted: 0, duplicates: 0, rejected: 0 };

  constructor(
    readonly latest: LatestPositions,
    private readonly recent: RecentFixes,
    private readonly track: TrackWriter,
    private readonly limits: ValidationLimits,
  ) {
    super();
    this.setMaxListeners(100);
  }

  /** Field problems of one position without ingesting it (for all-or-nothing batch checks). */
  check(position: Position, now = Date.now()) {
    return positionProblems(position, now, this.limits);
  }

  ingest(positions: readonly Position[], now = Date.now()): IngestOutcome {
    const outcome: Omit<IngestOutcome, 'durable'> = { accepted: 0, duplicates: 0, rejected: [] };
    const fresh: Position[] = [];
    const changed = new Map<number, PositionChange>();
    positions.forEach((p, index) => {
      const problems = positionProblems(p, now, this.limits);
      if (problems.length > 0) {
        for (const problem of problems) outcome.rejected.push({ index, ...problem });
        return;
      }
      if (!this.recent.add(p.vehicleId, p.time)) {
        outcome.duplicates += 1;
        return;
      }
      fresh.push(p);
      if (this.latest.apply(p, now)) changed.set(p.vehicleId, { vehicleId: p.vehicleId, ...this.latest.get(p.vehicleId)! });
    });
    outcome.accepted = fresh.length;
    const durable =
      fresh.length === 0
        ? Promise.resolve(true)
        : this.track.append(fresh).then(
            () => true,
            () => {
              // Not acknowledged, so the sender resends: the resend must not be taken for a duplicate.
              for (const p of fresh) this.recent.forget(p.vehicleId, p.time);
              return false;
            },
          );
    this.counters.accepted += outcome.accepted;
    this.counters.duplicates += outcome.duplicates;
    this.counters.rejected += outcome.rejected.length;
    if (changed.size > 0) this.emit('positions', [...changed.values()], false);
    if (fresh.length > 0) this.emit('accepted', fresh, false);
    return { ...outcome, durable };
  }

  /**
   * Positions another server process accepted (over the bus): the latest state and the subscribers take them
   * as their own; their track is that process's to write. They are not remembered as duplicates here, so a
   * terminal that moves to this process and resends is not refused.
   */
  applyRemote(positions: readonly Position[], now = Date.now()): void {
    const changed = new Map<number, PositionChange>();
    for (const p of positions) {
      if (this.latest.apply(p, now)) changed.set(p.vehicleId, { vehicleId: p.vehicleId, ...this.latest.get(p.vehicleId)! });
    }
    if (changed.size > 0) this.emit('positions', [...changed.values()], true);
    if (positions.length > 0) this.emit('accepted', positions, true);
  }

  stats() {
    return { ...this.counters, vehicles: this.latest.size, track: this.track.getStats() };
  }
}
