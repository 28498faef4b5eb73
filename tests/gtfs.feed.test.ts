import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { inspectFeed } from '../src/server/gtfs/feed/inspectFeed';
import { parseGtfsDate, parseGtfsTime, zoneOffsetMinutes } from '../src/server/gtfs/feed/gtfsValues';
import type { NoticeCode } from '../src/shared/gtfs/notices';
import { cleanFeed, writeFeedZip } from './helpers/gtfsFeeds';

const codes = (notices: { list(): { code: NoticeCode }[] }) => new Set(notices.list().map((n) => n.code));

async function inspect(files: Record<string, string>) {
  return inspectFeed(await writeFeedZip(files));
}

describe('GTFS values', () => {
  it('reads times past midnight, one-digit hours and refuses what is not a time', () => {
    expect(parseGtfsTime('7:05:00')).toBe(7 * 3600 + 300);
    expect(parseGtfsTime('25:10:30')).toBe(25 * 3600 + 630);
    expect(parseGtfsTime('07:60:00')).toBeNull();
    expect(parseGtfsTime('0705')).toBeNull();
  });
  it('reads calendar dates and refuses impossible ones', () => {
    expect(parseGtfsDate('20260228')).toBe('2026-02-28');
    expect(parseGtfsDate('20260230')).toBeNull();
    expect(parseGtfsDate('2026-02-28')).toBeNull();
  });
  it('knows the offset of a zone on a date', () => {
    expect(zoneOffsetMinutes('Europe/Moscow', '2026-07-01')).toBe(180);
    expect(zoneOffsetMinutes('Europe/Berlin', '2026-01-15')).toBe(60);
    expect(zoneOffsetMinutes('Europe/Berlin', '2026-07-15')).toBe(120);
    expect(zoneOffsetMinutes('Mars/Olympus', '2026-07-15')).toBeNull();
  });
});

describe('GTFS feed reading', () => {
  it('reads a clean feed with no notice', async () => {
    const { feed, counts, notices } = await inspect(cleanFeed());
    expect(notices.list()).toEqual([]);
    expect(counts['stop_times.txt']).toBe(8);
    expect(feed.trips.map((t) => t.id)).toEqual(['t1', 't2']);
    expect(feed.stopTimes.length).toBe(8);
    expect(feed.calendars[0]).toMatchObject({ serviceId: 'wd', start: '2026-01-01', end: '2026-12-31', days: 0b0111110 });
  });

  it('reads the published sample feed (sample-gtfs-feed) without an error', async () => {
    const zip = createRequire(import.meta.url).resolve('sample-gtfs-feed/gtfs.zip');
    const { feed, notices } = await inspectFeed(zip);
    expect(notices.hasErrors()).toBe(false);
    expect(feed.routes.length).toBeGreaterThan(0);
    expect(feed.shapes.size).toBeGreaterThan(0);
    expect(feed.frequencies.length).toBeGreaterThan(0);
  });

  it('takes a messy feed as it comes: BOM, CRLF, quotes, spaces, extra columns, a folder inside the zip, unsorted stop times', async () => {
    const files = cleanFeed();
    const messy: Record<string, string> = {
      ...files,
      'agency.txt':
        '\uFEFFagency_id,agency_name,agency_url,agency_timezone,extra\r\nA,"Горэлектротранс, СПб",https://example.org,Europe/Moscow,x\r\n',
      'stops.txt': files['stops.txt'].replace('s1,Площадь,59.9300,30.3100', 's1,"Площадь ""Восстания""", 59.9300 ,30.3100'),
      'stop_times.txt': files['stop_times.txt']
        .split('\n')
        .filter(Boolean)
        .reverse()
        .sort((a, b) => (a.startsWith('trip_id') ? -1 : b.startsWith('trip_id') ? 1 : 0))
        .join('\r\n'),
    };
    const path = await writeFeedZip(messy, 'feed-2026/');
    const { feed, notices } = await inspectFeed(path);
    expect(notices.hasErrors()).toBe(false);
    expect(feed.agencies[0].name).toBe('Горэлектротранс, СПб');
    expect(feed.stops[0]).toMatchObject({ name: 'Площадь "Восстания"', lat: 59.93 });
    expect(codes(notices)).toEqual(new Set(['unknown_column', 'leading_or_trailing_whitespaces']));
    const st = feed.stopTimes;
    expect([...st.seq.subarray(0, 8)]).toEqual([1, 2, 3, 4, 1, 2, 3, 4]);
    expect(feed.trips[st.trip[0]].id).toBe('t1');
  });

  it('keeps times past 24:00 and stop times with only their timepoints set', async () => {
    const files = cleanFeed();
    files['stop_times.txt'] = files['stop_times.txt']
      .replace('t1,07:04:00,07:04:30,s2,2', 't1,,,s2,2')
      .replace(/t2,07:(\d\d):00,07:(\d\d):00/g, 't2,24:$1:00,24:$2:00');
    const { feed, notices } = await inspect(files);
    expect(notices.list()).toEqual([]);
    expect(feed.stopTimes.arrival[1]).toBe(-1);
    expect(feed.stopTimes.arrival[7]).toBe(24 * 3600 + 32 * 60);
  });
});

/** A clean feed changed one way, and the notice it must raise. */
const broken: [NoticeCode, (f: Record<string, string>) => void][] = [
  ['missing_required_file', (f) => delete f['stops.txt']],
  ['missing_calendar_and_calendar_date_files', (f) => delete f['calendar.txt']],
  ['missing_required_column', (f) => (f['routes.txt'] = f['routes.txt'].replace('route_type', 'kind'))],
  ['missing_required_field', (f) => (f['agency.txt'] = f['agency.txt'].replace('Горэлектротранс', ''))],
  ['duplicate_key', (f) => (f['stops.txt'] += 's4,Вокзал 2,59.9450,30.3400\n')],
  ['foreign_key_violation', (f) => (f['trips.txt'] += 'r9,wd,t3,0,b2\n')],
  ['invalid_time', (f) => (f['stop_times.txt'] = f['stop_times.txt'].replace('07:08:00,07:08:00', '7h08,7h08'))],
  ['invalid_date', (f) => (f['calendar.txt'] = f['calendar.txt'].replace('20261231', '20261332'))],
  ['invalid_float', (f) => (f['stops.txt'] = f['stops.txt'].replace('59.9350', '59.93.50'))],
  ['invalid_timezone', (f) => (f['agency.txt'] = f['agency.txt'].replace('Europe/Moscow', 'Europe/Nowhere'))],
  ['missing_trip_edge', (f) => (f['stop_times.txt'] = f['stop_times.txt'].replace('t1,07:12:00,07:12:00', 't1,,'))],
  ['decreasing_or_equal_stop_time_sequence', (f) => (f['stop_times.txt'] = f['stop_times.txt'].replace('s3,3', 's3,2'))],
  [
    'stop_time_with_arrival_before_previous_departure_time',
    (f) => (f['stop_times.txt'] = f['stop_times.txt'].replace('t1,07:08:00,07:08:00', 't1,07:02:00,07:02:00')),
  ],
  [
    'stop_time_with_departure_before_arrival_time',
    (f) => (f['stop_times.txt'] = f['stop_times.txt'].replace('07:04:00,07:04:30', '07:04:30,07:04:00')),
  ],
  ['point_near_origin', (f) => (f['stops.txt'] = f['stops.txt'].replace('59.9450,30.3400', '0,0'))],
  ['stop_too_far_from_feed_area', (f) => (f['stops.txt'] = f['stops.txt'].replace('59.9450,30.3400', '55.75,37.62'))],
  ['fast_travel_between_consecutive_stops', (f) => (f['stops.txt'] = f['stops.txt'].replace('59.9400,30.3300', '60.9400,30.3300'))],
  ['start_and_end_range_out_of_order', (f) => (f['calendar.txt'] = f['calendar.txt'].replace('20260101,20261231', '20261231,20260101'))],
  ['service_never_active', (f) => (f['calendar.txt'] += 'never,0,0,0,0,0,0,0,20260101,20261231\n')],
  ['unusable_trip', (f) => (f['trips.txt'] += 'r1,wd,t3,0,b2\n') && (f['stop_times.txt'] += 't3,09:00:00,09:00:00,s1,1\n')],
  ['unused_stop', (f) => (f['stops.txt'] += 's5,Депо,59.95,30.35\n')],
  ['unused_shape', (f) => (f['shapes.txt'] = 'shape_id,shape_pt_lat,shape_pt_lon,shape_pt_sequence\nsh,59.93,30.31,1\nsh,59.94,30.33,2\n')],
  ['route_without_trips', (f) => (f['routes.txt'] += 'r2,A,8,Пустой,3\n')],
  [
    'block_trips_with_overlapping_stop_times',
    (f) => (f['stop_times.txt'] = f['stop_times.txt'].replace('t2,07:20:00,07:20:00,s4,1', 't2,07:10:00,07:10:00,s4,1')),
  ],
  ['unknown_file', (f) => (f['notes.txt'] = 'a\n')],
];

describe('GTFS notices', () => {
  it.each(broken)('%s is raised by a feed that trips it and not by the clean feed', async (code, change) => {
    const files = cleanFeed();
    change(files);
    const { notices } = await inspect(files);
    expect(codes(notices)).toContain(code);
  });
});
