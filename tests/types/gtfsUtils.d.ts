// The parts of gtfs-utils (CommonJS, untyped) that the independent-reader test uses.
declare module 'gtfs-utils/read-csv.js' {
  import type { Readable } from 'node:stream';
  export default function readCsv(source: string | Readable): Promise<AsyncIterable<Record<string, string>>>;
}
declare module 'gtfs-utils/read-stops.js' {
  import type { GtfsReadFile } from 'gtfs-utils';
  export default function readStops(readFile: GtfsReadFile): Promise<{ values(): AsyncIterable<Record<string, unknown>> }>;
}
declare module 'gtfs-utils/read-services-and-exceptions.js' {
  import type { GtfsReadFile } from 'gtfs-utils';
  /** [service id, its days (unix seconds at the zone's midnight), its calendar row]. */
  export default function readServicesAndExceptions(readFile: GtfsReadFile, timezone: string): AsyncIterable<[string, number[], unknown]>;
}
declare module 'gtfs-utils/compute-stopovers.js' {
  import type { GtfsReadFile } from 'gtfs-utils';
  export interface Stopover {
    stop_id: string;
    trip_id: string;
    service_id: string;
    route_id: string;
    start_of_trip: number;
    arrival: number;
    departure: number;
  }
  export default function computeStopovers(
    readFile: GtfsReadFile,
    timezone: string,
    filters?: { trip?: (trip: Record<string, string>) => boolean },
  ): AsyncIterable<Stopover>;
}
declare module 'gtfs-utils' {
  /** A file by its name without `.txt`, as rows in object mode. */
  export type GtfsReadFile = (name: string) => Promise<AsyncIterable<Record<string, string>>> | AsyncIterable<Record<string, string>>;
}
