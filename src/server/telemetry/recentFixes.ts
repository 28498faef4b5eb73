/**
 * Fix times recently seen per vehicle, to drop resends: terminals resend records they got no answer for, and
 * a black box replays what it already sent. A small window per vehicle catches those in memory; the track's
 * primary key (vehicle_id, tm) catches whatever is older when it is written.
 */
export class RecentFixes {
  private readonly seen = new Map<number, Set<number>>();

  constructor(private readonly perVehicle = 256) {}

  /** Records the fix; false when it was already seen. */
  add(vehicleId: number, time: number): boolean {
    let times = this.seen.get(vehicleId);
    if (!times) {
      times = new Set();
      this.seen.set(vehicleId, times);
    }
    if (times.has(time)) return false;
    times.add(time);
    // A Set iterates in insertion order: the first value is the oldest one kept.
    if (times.size > this.perVehicle) times.delete(times.values().next().value as number);
    return true;
  }

  forget(vehicleId: number, time: number): void {
    this.seen.get(vehicleId)?.delete(time);
  }
}
