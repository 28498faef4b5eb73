import { NOTICE_SEVERITY, type GtfsNotice, type NoticeCode } from '../../../shared/gtfs/notices';

/** Notices kept with their details per code; beyond, they are only counted (a broken feed can raise millions). */
const KEPT_PER_CODE = 50;
/** The line saying how many more of a code were counted (a notice, not a server message). */
const SUMMARY: NoticeCode = 'too_many_notices';

/** Collects what the reading and the checks say of a feed, bounded in memory whatever the feed. */
export class NoticeLog {
  private readonly kept: GtfsNotice[] = [];
  private readonly counts = new Map<NoticeCode, number>();

  add(code: NoticeCode, where: Omit<GtfsNotice, 'code' | 'severity'> = {}): void {
    const count = (this.counts.get(code) ?? 0) + 1;
    this.counts.set(code, count);
    if (count <= KEPT_PER_CODE) this.kept.push({ code, severity: NOTICE_SEVERITY[code], ...where });
  }

  /** Whether an error was raised: such a feed is not imported. */
  hasErrors(): boolean {
    for (const code of this.counts.keys()) if (NOTICE_SEVERITY[code] === 'error') return true;
    return false;
  }

  count(code: NoticeCode): number {
    return this.counts.get(code) ?? 0;
  }

  /** The notices kept, errors first, with one summary line per code that had more than were kept. */
  list(): GtfsNotice[] {
    const over = [...this.counts]
      .filter(([, n]) => n > KEPT_PER_CODE)
      .map(([code, n]): GtfsNotice => ({ code: SUMMARY, severity: NOTICE_SEVERITY[SUMMARY], value: `${code}: ${n}` }));
    const rank = (n: GtfsNotice) => (n.severity === 'error' ? 0 : 1);
    return [...this.kept].sort((a, b) => rank(a) - rank(b)).concat(over);
  }

  totals(): Record<string, number> {
    return Object.fromEntries(this.counts);
  }
}
