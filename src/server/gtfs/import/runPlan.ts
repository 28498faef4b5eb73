import type { GtfsFeed } from '../feed/gtfsFeed';
import { haversineMetres } from '../feed/gtfsValues';

/** One run of a vehicle along a trip: a GTFS trip, or one departure of a trip with frequencies. */
export interface PlannedRun {
  /** The GTFS trip id, with "@HH:MM:SS" for a departure expanded from frequencies.txt. */
  gtfsTripId: string;
  trip: number;
  /** Feed stop indexes in order, and each one's minute of the service day in the operator's zone. */
  stops: number[];
  minutes: number[];
  blockId: string;
}

/** An exit (the product's `graph`) of a timetable: its runs in order, numbered as races from 1. */
export interface PlannedExit {
  graph: number;
  runs: PlannedRun[];
}

/** Layover at a terminal the block chaining accepts between two runs of one vehicle. */
const MAX_LAYOVER_MIN = 120;
/** Two terminals this close are one place for the chaining (a stand across the road). */
const SAME_TERMINAL_M = 300;

/**
 * Minutes of each stop of a trip in the operator's zone: the feed's times shifted by `shiftMinutes`, stops
 * without times (not timepoints) placed between their timed neighbours in proportion to the distance, rounded
 * to the minute (the handbook's unit).
 */
export function runMinutes(feed: GtfsFeed, first: number, end: number, shiftSeconds: number): number[] {
  const st = feed.stopTimes;
  const seconds: number[] = [];
  const along: number[] = [0];
  for (let i = first + 1; i < end; i++) {
    const a = feed.stops[st.stop[i - 1]];
    const b = feed.stops[st.stop[i]];
    const hop = Number.isFinite(a.lat) && Number.isFinite(b.lat) ? haversineMetres(a.lat, a.lon, b.lat, b.lon) : 0;
    along.push(along[along.length - 1] + hop);
  }
  let known = -1;
  for (let i = first; i < end; i++) {
    const k = i - first;
    const time = st.departure[i] >= 0 ? st.departure[i] : -1;
    if (time < 0) {
      seconds.push(-1);
      continue;
    }
    if (known >= 0 && k - known > 1) {
      const from = seconds[known];
      const span = along[k] - along[known];
      for (let j = known + 1; j < k; j++) {
        const share = span > 0 ? (along[j] - along[known]) / span : (j - known) / (k - known);
        seconds[j] = from + share * (time - from);
      }
    }
    seconds.push(time);
    known = k;
  }
  return seconds.map((s) => Math.round((s + shiftSeconds) / 60));
}

/** The runs of the given trips: each trip once, or once per departure of its frequencies. */
export function plannedRuns(feed: GtfsFeed, trips: number[], ranges: Int32Array, shiftSeconds: number): PlannedRun[] {
  const frequencies = new Map<number, typeof feed.frequencies>();
  for (const f of feed.frequencies) (frequencies.get(f.trip) ?? frequencies.set(f.trip, []).get(f.trip)!).push(f);
  const runs: PlannedRun[] = [];
  for (const t of trips) {
    const first = ranges[t * 2];
    const end = ranges[t * 2 + 1];
    if (first < 0 || end - first < 2) continue;
    const trip = feed.trips[t];
    const stops = Array.from(feed.stopTimes.stop.subarray(first, end));
    const repeats = frequencies.get(t);
    if (!repeats) {
      runs.push({ gtfsTripId: trip.id, trip: t, stops, minutes: runMinutes(feed, first, end, shiftSeconds), blockId: trip.blockId });
      continue;
    }
    const start = feed.stopTimes.departure[first];
    for (const f of repeats) {
      for (let departure = f.start; departure < f.end || (departure === f.start && f.start === f.end); departure += f.headway) {
        const minutes = runMinutes(feed, first, end, shiftSeconds + departure - start);
        runs.push({ gtfsTripId: `${trip.id}@${secondsLabel(departure)}`, trip: t, stops, minutes, blockId: '' });
      }
    }
  }
  return runs;
}

const secondsLabel = (s: number) =>
  [Math.floor(s / 3600), Math.floor((s % 3600) / 60), s % 60].map((n) => String(n).padStart(2, '0')).join(':');

/**
 * Exits of one timetable: the runs of a block form one exit, in time order; runs without a block are chained
 * end to start as vehicles queue at a terminal: a run continues the exit that has waited longest at the same
 * terminal (or its station, or a stop within 300 m), at most two hours, else it opens a new exit. Exits are
 * numbered by their first departure.
 */
export function chainExits(feed: GtfsFeed, runs: PlannedRun[]): PlannedExit[] {
  const byStart = [...runs].sort((a, b) => a.minutes[0] - b.minutes[0] || (a.gtfsTripId < b.gtfsTripId ? -1 : 1));
  const blocks = new Map<string, PlannedRun[]>();
  const open: PlannedRun[][] = [];
  const chains: PlannedRun[][] = [];
  for (const run of byStart) {
    if (run.blockId) {
      const block = blocks.get(run.blockId);
      if (block) block.push(run);
      else {
        const chain = [run];
        blocks.set(run.blockId, chain);
        chains.push(chain);
      }
      continue;
    }
    let best: PlannedRun[] | undefined;
    for (const chain of open) {
      const last = chain[chain.length - 1];
      const end = last.minutes[last.minutes.length - 1];
      const wait = run.minutes[0] - end;
      if (wait < 0 || wait > MAX_LAYOVER_MIN || !sameTerminal(feed, last.stops[last.stops.length - 1], run.stops[0])) continue;
      if (!best || end < lastMinute(best)) best = chain;
    }
    if (best) best.push(run);
    else {
      const chain = [run];
      open.push(chain);
      chains.push(chain);
    }
  }
  return chains
    .sort((a, b) => a[0].minutes[0] - b[0].minutes[0] || (a[0].gtfsTripId < b[0].gtfsTripId ? -1 : 1))
    .map((chain, i) => ({ graph: i + 1, runs: chain }));
}

const lastMinute = (chain: PlannedRun[]) => {
  const last = chain[chain.length - 1];
  return last.minutes[last.minutes.length - 1];
};

function sameTerminal(feed: GtfsFeed, a: number, b: number): boolean {
  if (a === b) return true;
  const x = feed.stops[a];
  const y = feed.stops[b];
  if (x.parent && x.parent === y.parent) return true;
  return Number.isFinite(x.lat) && Number.isFinite(y.lat) && haversineMetres(x.lat, x.lon, y.lat, y.lon) <= SAME_TERMINAL_M;
}
