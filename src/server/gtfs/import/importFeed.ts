import type { GtfsFileCounts, GtfsNotice } from '../../../shared/gtfs/notices';
import type { Db } from '../../db/types';
import { GTFS_FILES, type GtfsFile } from '../feed/gtfsTable';
import { zoneOffsetMinutes } from '../feed/gtfsValues';
import { inspectFeed, type InspectedFeed } from '../feed/inspectFeed';
import { isoOfDay, serviceDays } from './serviceCalendar';
import { writeNetwork, type WriteCounts } from './writeNetwork';

export type ImportStage = 'upload' | 'check' | 'write' | 'end';
export type ImportOutcome = 'done' | 'refused' | 'cancelled';

export interface ImportReport {
  files: GtfsFileCounts[];
  notices: GtfsNotice[];
  /** Notices by code, counted in full (the list keeps the first of each). */
  totals: Record<string, number>;
  /** The feed's zone and the operator's, when they differ: the times were moved by the difference. */
  timezone?: { feed: string; feedOffsetMinutes: number; operatorOffsetMinutes: number };
  written?: WriteCounts;
}

export interface ImportOptions {
  operatorOffsetMinutes: number;
  today: string;
  onStage(stage: ImportStage, progress: number): Promise<void> | void;
  signal?: AbortSignal;
}

/** An import stopped by its user: the transaction is rolled back, every handbook stays as it was. */
export class ImportCancelled extends Error {
  constructor() {
    super('GTFS import cancelled');
  }
}

const checkCancelled = (signal?: AbortSignal) => {
  if (signal?.aborted) throw new ImportCancelled();
};

/** Rows read, written and skipped per file of the feed. */
function fileCounts(inspected: InspectedFeed, written?: WriteCounts): GtfsFileCounts[] {
  const { feed, counts } = inspected;
  const ranges = feed.stopTimes.ranges(feed.trips.length);
  const runnable = feed.trips.map((_, t) => ranges[t * 2 + 1] - ranges[t * 2]).filter((n) => n >= 2);
  const writtenOf: Partial<Record<GtfsFile, number>> = written
    ? {
        'agency.txt': written.agencies,
        'stops.txt': written.stops,
        'routes.txt': written.routes,
        'trips.txt': runnable.length,
        'stop_times.txt': runnable.reduce((n, stops) => n + stops, 0),
        'calendar.txt': feed.calendars.length,
        'calendar_dates.txt': feed.calendarDates.length,
        'shapes.txt': [...feed.shapes.values()].reduce((n, s) => n + s.seq.length, 0),
        'frequencies.txt': feed.frequencies.length,
        'feed_info.txt': feed.info ? 1 : 0,
      }
    : {};
  return (Object.keys(GTFS_FILES) as GtfsFile[])
    .filter((file) => (counts[file] ?? 0) > 0)
    .map((file) => {
      const read = counts[file] ?? 0;
      const done = Math.min(read, writtenOf[file] ?? 0);
      return { file, read, written: done, skipped: read - done };
    });
}

/**
 * Imports a GTFS zip into the handbooks: check (every notice; an error refuses the feed and nothing is written),
 * then write in one transaction (cancelled or failed: rolled back whole). Times are moved into the operator's
 * zone when the feed's agency has another.
 */
export async function importFeed(db: Db, path: string, options: ImportOptions): Promise<{ outcome: ImportOutcome; report: ImportReport }> {
  await options.onStage('check', 0);
  const inspected = await inspectFeed(path);
  const { feed, notices } = inspected;
  const report = (): ImportReport => ({ files: fileCounts(inspected), notices: notices.list(), totals: notices.totals() });
  if (notices.hasErrors()) return { outcome: 'refused', report: report() };
  checkCancelled(options.signal);

  const calendar = serviceDays(feed);
  const zone = feed.agencies[0]?.timezone ?? '';
  const feedOffset =
    zoneOffsetMinutes(zone, calendar.last >= calendar.first ? isoOfDay(calendar.first) : options.today) ?? options.operatorOffsetMinutes;
  const shiftMinutes = options.operatorOffsetMinutes - feedOffset;
  if (shiftMinutes !== 0)
    notices.add('timezone_converted', {
      file: 'agency.txt',
      field: 'agency_timezone',
      value: `${zone} ${shiftMinutes > 0 ? '+' : ''}${shiftMinutes}`,
    });

  await options.onStage('write', 0);
  const written = await db.longRunning().transaction((tx) =>
    writeNetwork(tx, feed, calendar, {
      today: options.today,
      shiftSeconds: shiftMinutes * 60,
      progress: async (share) => {
        checkCancelled(options.signal);
        await options.onStage('write', share);
      },
    }),
  );
  return {
    outcome: 'done',
    report: {
      files: fileCounts(inspected, written),
      notices: notices.list(),
      totals: notices.totals(),
      written,
      ...(shiftMinutes !== 0
        ? { timezone: { feed: zone, feedOffsetMinutes: feedOffset, operatorOffsetMinutes: options.operatorOffsetMinutes } }
        : {}),
    },
  };
}
