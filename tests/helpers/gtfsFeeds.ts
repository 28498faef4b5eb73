import { createWriteStream, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import archiver from 'archiver';
import type { FastifyInstance } from 'fastify';
import Papa from 'papaparse';
import yauzl from 'yauzl';

/** Writes a feed's files (name → text, exactly as given: BOMs, CRLFs and all) into a zip in a temporary folder. */
export async function writeFeedZip(files: Record<string, string>, folder = ''): Promise<string> {
  const path = join(mkdtempSync(join(tmpdir(), 'gtfs-test-')), 'feed.zip');
  const zip = archiver('zip');
  const done = new Promise<void>((resolve, reject) => {
    const out = createWriteStream(path);
    out.on('close', () => resolve());
    zip.on('error', reject);
    zip.pipe(out);
  });
  for (const [name, text] of Object.entries(files)) zip.append(text, { name: folder + name });
  await zip.finalize();
  await done;
  return path;
}

/** The files of a zip as text. */
export async function unzipTexts(bytes: Buffer): Promise<Record<string, string>> {
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.fromBuffer(bytes, { lazyEntries: true }, (e, z) => (e ? reject(e) : resolve(z))),
  );
  const files: Record<string, string> = {};
  await new Promise<void>((resolve, reject) => {
    zip.on('entry', (entry: yauzl.Entry) =>
      zip.openReadStream(entry, (error, stream) => {
        if (error) return reject(error);
        const chunks: Buffer[] = [];
        stream
          .on('data', (c: Buffer) => chunks.push(c))
          .on('end', () => {
            files[entry.fileName] = Buffer.concat(chunks).toString('utf8');
            zip.readEntry();
          });
      }),
    );
    zip.on('end', () => resolve()).on('error', reject);
    zip.readEntry();
  });
  return files;
}

/** Rows of a GTFS file as objects by column. */
export const rowsOf = (text: string) => Papa.parse<Record<string, string>>(text, { header: true, skipEmptyLines: true }).data;

/** A small clean feed: one agency, a route with two trips of one block, four stops, a calendar. */
export function cleanFeed(): Record<string, string> {
  return {
    'agency.txt': 'agency_id,agency_name,agency_url,agency_timezone\nA,Горэлектротранс,https://example.org,Europe/Moscow\n',
    'stops.txt':
      [
        'stop_id,stop_name,stop_lat,stop_lon',
        's1,Площадь,59.9300,30.3100',
        's2,Рынок,59.9350,30.3200',
        's3,Парк,59.9400,30.3300',
        's4,Вокзал,59.9450,30.3400',
      ].join('\n') + '\n',
    'routes.txt': 'route_id,agency_id,route_short_name,route_long_name,route_type\nr1,A,7,Площадь — Вокзал,3\n',
    'calendar.txt':
      'service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\nwd,1,1,1,1,1,0,0,20260101,20261231\n',
    'trips.txt': 'route_id,service_id,trip_id,direction_id,block_id\nr1,wd,t1,0,b1\nr1,wd,t2,1,b1\n',
    'stop_times.txt':
      [
        'trip_id,arrival_time,departure_time,stop_id,stop_sequence',
        't1,07:00:00,07:00:00,s1,1',
        't1,07:04:00,07:04:30,s2,2',
        't1,07:08:00,07:08:00,s3,3',
        't1,07:12:00,07:12:00,s4,4',
        't2,07:20:00,07:20:00,s4,1',
        't2,07:24:00,07:24:00,s3,2',
        't2,07:28:00,07:28:00,s2,3',
        't2,07:32:00,07:32:00,s1,4',
      ].join('\n') + '\n',
  };
}

/**
 * A large city's day: 20 routes across 30 stops, a trip each way every 10 minutes from 05:00 to 23:00 without
 * blocks (the importer chains them at the terminals), about 130,000 stop times. The import notices a cancel
 * between routes, so there are many. Its calendar is long past: nothing of it would run today.
 */
export function largeFeed(): Record<string, string> {
  const stops = ['stop_id,stop_name,stop_lat,stop_lon'];
  for (let i = 0; i < 30; i++) stops.push(`s${i},Остановка ${i},${(59.9 + i * 0.003).toFixed(4)},${(30.25 + i * 0.004).toFixed(4)}`);
  const routes = ['route_id,agency_id,route_short_name,route_long_name,route_type'];
  const trips = ['route_id,service_id,trip_id,direction_id'];
  const times = ['trip_id,arrival_time,departure_time,stop_id,stop_sequence'];
  const clock = (minute: number) => `${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}:00`;
  for (let r = 0; r < 20; r++) {
    routes.push(`L${r},BIG,Л${r},Линия ${r},3`);
    for (let start = 300 + r; start < 1380; start += 10) {
      for (const direction of [0, 1]) {
        const trip = `L${r}-${start}-${direction}`;
        trips.push(`L${r},wd,${trip},${direction}`);
        for (let k = 0; k < 30; k++)
          times.push(`${trip},${clock(start + k * 2)},${clock(start + k * 2)},s${direction === 0 ? k : 29 - k},${k + 1}`);
      }
    }
  }
  return {
    'agency.txt': 'agency_id,agency_name,agency_url,agency_timezone\nBIG,Большой город,https://example.org,Europe/Moscow\n',
    'stops.txt': `${stops.join('\n')}\n`,
    'routes.txt': `${routes.join('\n')}\n`,
    'calendar.txt':
      'service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\nwd,1,1,1,1,1,1,1,20100101,20101231\n',
    'trips.txt': `${trips.join('\n')}\n`,
    'stop_times.txt': `${times.join('\n')}\n`,
  };
}

/** Imports a feed through the API as `authorization` and waits for the import to end; its run (status, report). */
export async function importFeed(
  app: FastifyInstance,
  authorization: string,
  files: Record<string, string>,
): Promise<{ status: string; report: unknown }> {
  const url = '/api/v1/gtfs/imports';
  const response = await app.inject({
    method: 'POST',
    url: `${url}?file=feed.zip`,
    payload: readFileSync(await writeFeedZip(files)),
    headers: { authorization, 'content-type': 'application/zip' },
  });
  if (response.statusCode !== 202) throw new Error(`the import was refused: ${response.body}`);
  for (let i = 0; i < 600; i++) {
    const run = (await app.inject({ method: 'GET', url: `${url}/${response.json().id}`, headers: { authorization } })).json();
    if (run.status !== 'running') return run;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('the import did not end');
}

/**
 * Assigns a vehicle not working `date` (no task, no replacement; its depot has drivers) to exit `graph` of route
 * `routeName` through the vehicle-task import, as a dispatcher does for an imported network's exits.
 */
export async function appointSpareVehicle(
  app: FastifyInstance,
  authorization: string,
  date: string,
  routeName: string,
  except: number[] = [],
): Promise<{ vehicle: { id: number; depot_number: number }; answer: { statusCode: number; body: string; json: () => unknown } }> {
  const [vehicle] = await app.db.query<{ id: number; depot_number: number }>(
    `select v.id, v.depot_number from mgt.vehicles v
      where v.id <> all($2::int[]) and v.id not in (select vehicle_id from mgt.vehicle_task where date = $1) and v.depot_id is not null
        and v.id not in (select replace_vehicle_id from mgt.replace_vehicle where date = $1)
        and exists (select 1 from mgt.driver d where d.depot_id = v.depot_id)
      order by v.id limit 1`,
    [date, except],
  );
  const csv = `date;route_number;grafic;depot_number;start_time;end_time\n${date};${routeName};1;${vehicle.depot_number};06:30;08:00\n`;
  const answer = await app.inject({
    method: 'POST',
    url: '/api/table/import/appoint-vehicles-to-route',
    payload: { config: { type: 'vehicletask' }, csv },
    headers: { authorization },
  });
  return { vehicle, answer };
}
