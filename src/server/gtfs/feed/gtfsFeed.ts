/**
 * A GTFS feed in memory, in the shape the importer and the checks need: records by index, ids mapped to indexes
 * once, and the stop times (the millions) in typed columns rather than one object each.
 */
export interface FeedAgency {
  id: string;
  name: string;
  url: string;
  timezone: string;
  phone: string;
  lang: string;
}

export interface FeedStop {
  id: string;
  code: string;
  name: string;
  lat: number;
  lon: number;
  /** 0 platform or stop, 1 station, 2 entrance, 3 generic node, 4 boarding area. */
  locationType: number;
  parent: string;
  line: number;
}

export interface FeedRoute {
  id: string;
  agencyId: string;
  shortName: string;
  longName: string;
  desc: string;
  type: number;
  color: string;
  line: number;
}

export interface FeedTrip {
  id: string;
  route: number;
  serviceId: string;
  headsign: string;
  /** 0 or 1; null when the feed leaves it out. */
  direction: number | null;
  blockId: string;
  shapeId: string;
  line: number;
}

export interface FeedCalendar {
  serviceId: string;
  /** Days of the week it runs, bit 0 = Sunday … bit 6 = Saturday (as JavaScript's getUTCDay). */
  days: number;
  start: string;
  end: string;
  line: number;
}

export interface FeedCalendarDate {
  serviceId: string;
  date: string;
  added: boolean;
  line: number;
}

export interface FeedShape {
  id: string;
  seq: number[];
  lat: number[];
  lon: number[];
  dist: number[];
}

export interface FeedFrequency {
  trip: number;
  start: number;
  end: number;
  headway: number;
  exact: boolean;
  line: number;
}

export interface FeedInfo {
  publisherName: string;
  publisherUrl: string;
  lang: string;
  startDate: string;
  endDate: string;
  version: string;
}

/** Columns of the stop times, one entry per stop time, sorted by trip and sequence once read. */
export class StopTimeColumns {
  length = 0;
  trip = new Int32Array(1024);
  seq = new Int32Array(1024);
  stop = new Int32Array(1024);
  /** Seconds since the start of the service day; -1 where the feed leaves the time out (not a timepoint). */
  arrival = new Int32Array(1024);
  departure = new Int32Array(1024);
  dist = new Float64Array(1024);
  line = new Int32Array(1024);

  push(trip: number, seq: number, stop: number, arrival: number, departure: number, dist: number, line: number): void {
    if (this.length === this.trip.length) this.grow();
    const i = this.length++;
    this.trip[i] = trip;
    this.seq[i] = seq;
    this.stop[i] = stop;
    this.arrival[i] = arrival;
    this.departure[i] = departure;
    this.dist[i] = dist;
    this.line[i] = line;
  }

  /**
   * Sorts by trip, then sequence (most feeds are sorted already: then nothing moves), and gives back the room
   * grown ahead: a city's 2.5 million stop times then take 80 MB during the write, not the 134 of their capacity.
   */
  sort(): void {
    let sorted = true;
    for (let i = 1; i < this.length && sorted; i++) {
      sorted = this.trip[i - 1] < this.trip[i] || (this.trip[i - 1] === this.trip[i] && this.seq[i - 1] <= this.seq[i]);
    }
    const order = sorted ? null : new Int32Array(this.length);
    if (order) {
      for (let i = 0; i < this.length; i++) order[i] = i;
      order.sort((a, b) => this.trip[a] - this.trip[b] || this.seq[a] - this.seq[b]);
    }
    // Column by column, so at most one column exists twice at a time.
    for (const column of ['trip', 'seq', 'stop', 'arrival', 'departure', 'line'] as const) {
      const source = this[column];
      const target = new Int32Array(this.length);
      if (order) for (let i = 0; i < this.length; i++) target[i] = source[order[i]];
      else target.set(source.subarray(0, this.length));
      this[column] = target;
    }
    const dist = new Float64Array(this.length);
    if (order) for (let i = 0; i < this.length; i++) dist[i] = this.dist[order[i]];
    else dist.set(this.dist.subarray(0, this.length));
    this.dist = dist;
  }

  /** [first, end) of each trip's stop times, by trip index (empty for a trip without any). */
  ranges(trips: number): Int32Array {
    const bounds = new Int32Array(trips * 2).fill(-1);
    for (let i = 0; i < this.length; i++) {
      const t = this.trip[i];
      if (bounds[t * 2] < 0) bounds[t * 2] = i;
      bounds[t * 2 + 1] = i + 1;
    }
    return bounds;
  }

  /** By half again, not double: at most a third of the room is unused while reading. */
  private grow(): void {
    const size = Math.max(1024, Math.ceil(this.trip.length * 1.5));
    const int = (a: Int32Array) => {
      const b = new Int32Array(size);
      b.set(a);
      return b;
    };
    this.trip = int(this.trip);
    this.seq = int(this.seq);
    this.stop = int(this.stop);
    this.arrival = int(this.arrival);
    this.departure = int(this.departure);
    this.line = int(this.line);
    const dist = new Float64Array(size);
    dist.set(this.dist);
    this.dist = dist;
  }
}

export interface GtfsFeed {
  agencies: FeedAgency[];
  stops: FeedStop[];
  stopIndex: Map<string, number>;
  routes: FeedRoute[];
  routeIndex: Map<string, number>;
  trips: FeedTrip[];
  tripIndex: Map<string, number>;
  stopTimes: StopTimeColumns;
  calendars: FeedCalendar[];
  calendarDates: FeedCalendarDate[];
  shapes: Map<string, FeedShape>;
  frequencies: FeedFrequency[];
  info: FeedInfo | null;
}
