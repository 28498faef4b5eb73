import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { TYPE_PARSERS } from './types';
import { postgisTrimmed, releaseBundleCopies, type PostgisBundle } from './postgisBundle';
import type { WorkerReply, WorkerRequest, WorkerStart, SerializedDbError } from './pgliteProtocol';

/**
 * The thread that owns the embedded database. It runs one request at a time, in the order the main thread
 * sends them; the main thread does the scheduling (transactions, time limits), so a slow query here never
 * blocks the HTTP server, the geo stream or EGTS.
 */
const { dir, loadDataDir, settings } = workerData as WorkerStart;
if (dir) mkdirSync(dir, { recursive: true });

async function open(bundle: PostgisBundle, image: ArrayBuffer | undefined): Promise<PGlite> {
  const pg = await PGlite.create({
    dataDir: dir,
    loadDataDir: image ? new Blob([image]) : undefined,
    // pg_trgm: the trigram indexes of handbook search (migration 110)
    extensions: { postgis: postgisTrimmed(bundle), pg_trgm },
    parsers: TYPE_PARSERS,
    startParams: [...PGlite.defaultStartParams, ...settings.flatMap((setting) => ['-c', setting])],
  });
  releaseBundleCopies(pg);
  return pg;
}

/**
 * An existing database has created PostGIS (the first migration does), so it opens without the install script
 * (about 70 MB less memory). One that has not, e.g. a first start stopped before that migration, is reopened
 * with it.
 */
async function openDatabase(): Promise<PGlite> {
  if (!loadDataDir && !(dir && existsSync(join(dir, 'PG_VERSION')))) return open('install', undefined);
  const running = await open('run', loadDataDir);
  const installed = await running.query("select 1 from pg_extension where extname = 'postgis'");
  if (installed.rows.length > 0) return running;
  await running.close();
  return open('install', dir ? undefined : loadDataDir);
}
const pg = await openDatabase();

/** PostgreSQL's error fields (code, detail, constraint…) as plain data: an Error's own fields do not survive postMessage. */
function serializeError(error: unknown): SerializedDbError {
  if (!(error instanceof Error)) return { message: String(error) };
  const fields: SerializedDbError = { message: error.message };
  for (const [key, value] of Object.entries(error)) if (typeof value === 'string') fields[key] = value;
  return fields;
}

const port = parentPort!;
port.on('message', async (request: WorkerRequest) => {
  let reply: WorkerReply;
  try {
    switch (request.op) {
      case 'query':
        reply = { id: request.id, rows: (await pg.query(request.sql, request.params)).rows };
        break;
      case 'exec':
        await pg.exec(request.sql);
        reply = { id: request.id, rows: [] };
        break;
      case 'dump': {
        const dump = await (await pg.dumpDataDir('gzip')).arrayBuffer();
        port.postMessage({ id: request.id, dump } satisfies WorkerReply, [dump]);
        return;
      }
      case 'close':
        await pg.close();
        reply = { id: request.id, rows: [] };
        break;
    }
  } catch (error) {
    reply = { id: request.id, error: serializeError(error) };
  }
  port.postMessage(reply);
});
port.postMessage({ ready: true });
