import { mkdirSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { TYPE_PARSERS } from './types';
import { postgisTrimmed } from './postgisBundle';
import type { WorkerReply, WorkerRequest, WorkerStart, SerializedDbError } from './pgliteProtocol';

/**
 * The thread that owns the embedded database. It runs one request at a time, in the order the main thread
 * sends them; the main thread does the scheduling (transactions, time limits), so a slow query here never
 * blocks the HTTP server, the geo stream or EGTS.
 */
const { dir, loadDataDir, settings } = workerData as WorkerStart;
if (dir) mkdirSync(dir, { recursive: true });
const pg = await PGlite.create({
  dataDir: dir,
  loadDataDir: loadDataDir ? new Blob([loadDataDir]) : undefined,
  extensions: { postgis: postgisTrimmed() },
  parsers: TYPE_PARSERS,
  startParams: [...PGlite.defaultStartParams, ...settings.flatMap((setting) => ['-c', setting])],
});

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
