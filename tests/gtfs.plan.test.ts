import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { inspectFeed } from '../src/server/gtfs/feed/inspectFeed';
import { chainExits, plannedRuns } from '../src/server/gtfs/import/runPlan';
import {
  dayNumber,
  isoOfDay,
  routeCalendar,
  weekdayOf,
  type RouteCalendar,
  type ServiceDays,
} from '../src/server/gtfs/import/serviceCalendar';
import { cleanFeed, writeFeedZip } from './helpers/gtfsFeeds';

/** The product's rule for a route's timetable on a date (migration 004's vehicle-task import, the map, the simulator). */
function inForce(calendar: RouteCalendar, day: number): string[] | null {
  const iso = isoOfDay(day);
  const dow = calendar.holidays.find((h) => h.date === iso)?.dow ?? weekdayOf(day);
  const candidates = calendar.variants
    .map((v, id) => ({ v, id }))
    .filter(({ v }) => v.startdate <= iso && v.enddate >= iso && (v.dow === null || v.dow === dow))
    .sort(
      (a, b) =>
        Number(a.v.dow === null) - Number(b.v.dow === null) ||
        (a.v.startdate < b.v.startdate ? 1 : a.v.startdate > b.v.startdate ? -1 : b.id - a.id),
    );
  return candidates[0]?.v.services ?? null;
}

describe('GTFS calendars as timetable variants and holidays', () => {
  it('weekdays, a Saturday timetable, no Sunday service, a holiday on a Monday run as a Sunday... as a Saturday', () => {
    const first = dayNumber('2026-01-05'); // a Monday
    const days = new Map<string, Set<number>>([
      ['wd', new Set()],
      ['sat', new Set()],
    ]);
    for (let d = first; d < first + 28; d++) {
      if (weekdayOf(d) >= 1 && weekdayOf(d) <= 5 && d !== first + 7) days.get('wd')!.add(d);
      if (weekdayOf(d) === 6 || d === first + 7) days.get('sat')!.add(d);
    }
    const calendar = routeCalendar('r', new Set(['wd', 'sat']), { first, last: first + 27, days });
    expect(calendar.variants.map((v) => [v.services.join('+'), v.dow])).toEqual([
      ['wd', null],
      ['', 0],
      ['sat', 6],
    ]);
    expect(calendar.holidays).toEqual([{ date: '2026-01-12', dow: 6 }]);
  });

  it('gives every date exactly the services it runs, whatever the calendar (property)', () => {
    const service = fc.record({
      mask: fc.integer({ min: 0, max: 127 }),
      from: fc.integer({ min: 0, max: 40 }),
      length: fc.integer({ min: 0, max: 60 }),
      added: fc.array(fc.integer({ min: 0, max: 90 }), { maxLength: 4 }),
      removed: fc.array(fc.integer({ min: 0, max: 90 }), { maxLength: 4 }),
    });
    fc.assert(
      fc.property(fc.array(service, { minLength: 1, maxLength: 4 }), (services) => {
        const base = dayNumber('2026-03-02');
        const days = new Map<string, Set<number>>();
        services.forEach((s, i) => {
          const set = new Set<number>();
          for (let d = s.from; d <= s.from + s.length; d++) if (s.mask & (1 << weekdayOf(base + d))) set.add(base + d);
          s.added.forEach((d) => set.add(base + d));
          s.removed.forEach((d) => set.delete(base + d));
          days.set(`s${i}`, set);
        });
        const all = [...days.values()].flatMap((s) => [...s]);
        if (!all.length) return;
        const calendar: ServiceDays = { first: Math.min(...all), last: Math.max(...all), days };
        const result = routeCalendar('r', new Set(days.keys()), calendar);
        for (let d = calendar.first; d <= calendar.last; d++) {
          const wanted = [...days.keys()].filter((k) => days.get(k)!.has(d)).sort();
          expect(inForce(result, d) ?? [], `${isoOfDay(d)} ${JSON.stringify(result)}`).toEqual(wanted);
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('GTFS runs and exits', () => {
  it('places stops without times between their timed neighbours by distance, and shifts to the operator zone', async () => {
    const files = cleanFeed();
    files['stop_times.txt'] = files['stop_times.txt']
      .replace('t1,07:04:00,07:04:30,s2,2', 't1,,,s2,2')
      .replace('t1,07:08:00,07:08:00,s3,3', 't1,,,s3,3');
    const { feed } = await inspectFeed(await writeFeedZip(files));
    const ranges = feed.stopTimes.ranges(feed.trips.length);
    const [run] = plannedRuns(feed, [0], ranges, 3600);
    expect(run.minutes).toEqual([480, 484, 488, 492]);
  });

  it('expands frequencies into runs', async () => {
    const files = cleanFeed();
    files['frequencies.txt'] = 'trip_id,start_time,end_time,headway_secs\nt1,06:00:00,07:00:00,1200\n';
    const { feed } = await inspectFeed(await writeFeedZip(files));
    const runs = plannedRuns(feed, [0], feed.stopTimes.ranges(feed.trips.length), 0);
    expect(runs.map((r) => [r.gtfsTripId, r.minutes[0], r.minutes[3]])).toEqual([
      ['t1@06:00:00', 360, 372],
      ['t1@06:20:00', 380, 392],
      ['t1@06:40:00', 400, 412],
    ]);
  });

  it('makes exits of blocks, and chains trips without blocks end to start at the same terminal', async () => {
    const files = cleanFeed();
    files['trips.txt'] = 'route_id,service_id,trip_id,direction_id\nr1,wd,t1,0\nr1,wd,t2,1\nr1,wd,t3,0\nr1,wd,t4,0\n';
    files['stop_times.txt'] +=
      [
        't3,07:05:00,07:05:00,s1,1',
        't3,07:17:00,07:17:00,s4,2', // starts while t1 runs: a second vehicle
        't4,07:40:00,07:40:00,s1,1',
        't4,07:52:00,07:52:00,s4,2', // t2 ended at s1 at 07:32: the first vehicle goes on
      ].join('\n') + '\n';
    const { feed } = await inspectFeed(await writeFeedZip(files));
    const runs = plannedRuns(feed, [0, 1, 2, 3], feed.stopTimes.ranges(feed.trips.length), 0);
    const exits = chainExits(feed, runs);
    expect(exits.map((e) => [e.graph, e.runs.map((r) => r.gtfsTripId)])).toEqual([
      [1, ['t1', 't2', 't4']],
      [2, ['t3']],
    ]);
    const blocked = chainExits(
      feed,
      runs.map((r) => ({ ...r, blockId: r.gtfsTripId === 't4' ? 'b9' : 'b1' })),
    );
    expect(blocked.map((e) => e.runs.map((r) => r.gtfsTripId))).toEqual([['t1', 't3', 't2'], ['t4']]);
  });
});
