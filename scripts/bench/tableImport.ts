/**
 * Handbook import benchmark: a 1,000,000-row schedule-times CSV streamed through POST /api/table/import
 * (Content-Type: text/csv, ?type=rasptimes) to the real HTTP server, printing rows/s and the server's RSS
 * sampled during the import.
 *
 *   npx tsx scripts/bench/tableImport.ts                      # embedded PGlite, in memory
 *   DATABASE_URL=postgres://... npx tsx scripts/bench/tableImport.ts   # a SCRATCH database: rasp_time is replaced
 *
 * Target on PostgreSQL: at least 50,000 rows/s, memory bounded (RSS does not grow with the file).
 */
import { createReadStream, createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { once } from 'node:events';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { ROWS, startBenchServer } from './tableList';

/** Writes the CSV to disk first: the measured part is the upload and the import, not the generation. */
async function writeCsv(path: string, rows: number, variants: number[], stops: number[]): Promise<void> {
  const out = createWriteStream(path);
  out.write('\uFEFFRaspVariant_id;graph;smena;racetype;racenum;order;stop_id;time\r\n');
  let chunk = '';
  for (let g = 0; g < rows; g++) {
    const minutes = 300 + ((g * 37) % 1140);
    const time = `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
    chunk += `${variants[Math.floor(g / 2000) % variants.length]};${1 + (Math.floor(g / 200) % 30)};${1 + (Math.floor(g / 100) % 2)};${Math.floor(g / 20) % 2 ? 'BA' : 'AB'};${1 + (Math.floor(g / 20) % 10)};${1 + (g % 20)};${stops[(g * 7919) % stops.length]};${time}\r\n`;
    if (chunk.length > 1 << 16) {
      if (!out.write(chunk)) await once(out, 'drain');
      chunk = '';
    }
  }
  out.end(chunk);
  await once(out, 'finish');
}

async function importFile(address: string, auth: string, path: string): Promise<{ seconds: number; maxRss: number; body: unknown }> {
  let maxRss = process.memoryUsage().rss;
  const sampler = setInterval(() => {
    maxRss = Math.max(maxRss, process.memoryUsage().rss);
  }, 100);
  const started = performance.now();
  const response = await fetch(`${address}/api/table/import?type=rasptimes`, {
    method: 'POST',
    headers: { 'content-type': 'text/csv; charset=utf-8', authorization: auth },
    body: Readable.toWeb(createReadStream(path)) as ReadableStream,
    duplex: 'half',
  } as RequestInit);
  const body = await response.json();
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  if (response.status !== 200) throw new Error(`import ${response.status}: ${JSON.stringify(body).slice(0, 500)}`);
  return { seconds, maxRss, body };
}

async function main(): Promise<void> {
  const { app, db, address, auth } = await startBenchServer();
  const variants = (await db.query<{ id: number }>('select id from mgt.rasp_variant order by id')).map((row) => row.id);
  const stops = (await db.query<{ stop_id: number }>('select stop_id from mgt.stops order by stop_id')).map((row) => row.stop_id);
  const dir = mkdtempSync(join(tmpdir(), 'table-import-'));
  const path = join(dir, 'rasptimes.csv');
  try {
    await writeCsv(path, ROWS, variants, stops);
    console.log(`engine ${db.engine}; file ${ROWS.toLocaleString('en')} rows, ${(statSync(path).size / 2 ** 20).toFixed(1)} MB`);
    const rssBefore = process.memoryUsage().rss;

    // First into a table holding only the demo times, then again replacing the million just imported.
    await db.exec('truncate mgt.rasp_time');
    for (const label of ['into an empty table', 'replacing the same variants']) {
      const { seconds, maxRss, body } = await importFile(address, auth, path);
      console.log(
        `import ${label}: ${seconds.toFixed(1)} s, ${Math.round(ROWS / seconds).toLocaleString('en')} rows/s, ${JSON.stringify(body)}`,
      );
      console.log(
        `  server RSS before ${(rssBefore / 2 ** 20).toFixed(0)} MB, max during import ${(maxRss / 2 ** 20).toFixed(0)} MB; machine load average ${loadavg()
          .map((n) => n.toFixed(1))
          .join(' ')} on ${cpus().length} CPUs`,
      );
    }
    const [{ n }] = await db.query<{ n: number }>('select count(*)::int as n from mgt.rasp_time');
    console.log(`rows in mgt.rasp_time: ${n.toLocaleString('en')}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await app.close();
    await db.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
