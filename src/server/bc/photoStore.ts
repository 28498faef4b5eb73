import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Config } from '../config';
import type { Queryable } from '../db/types';

/**
 * Where report photos are kept: with the database. On PostgreSQL in the database itself (`bc.task_photo.data`),
 * so every server process behind a balancer reads the same ones and a backup holds them; with the embedded
 * engine as files beside its data (DATA_DIR/bc-photos/{task}/{photo}), since one process owns that folder and
 * PGlite takes about 0.8 s to store 2 MB of bytea (its parameters cross into WebAssembly as text). An
 * in-memory database (tests) keeps them in the table too.
 */
export interface PhotoStore {
  /** Stores a photo row (and its bytes) in the caller's transaction; the id of the row. */
  insert(tx: Queryable, photo: { taskId: number; title: string; mime: string; content: Buffer; userId: number }): Promise<number>;
  read(db: Queryable, id: number): Promise<{ taskId: number; mime: string; content: Buffer } | undefined>;
  /** Forgets the files of a deleted order (its rows go with it). */
  dropTask(taskId: number): Promise<void>;
}

export function photoStore(config: Pick<Config, 'databaseUrl' | 'dataDir'>): PhotoStore {
  const folder = !config.databaseUrl && config.dataDir ? join(config.dataDir, 'bc-photos') : undefined;
  const fileOf = (taskId: number, id: number) => join(folder!, String(taskId), String(id));
  return {
    async insert(tx, { taskId, title, mime, content, userId }) {
      const [{ id }] = await tx.query<{ id: number }>(
        'insert into bc.task_photo (task_id, title, mime, size, data, user_id) values ($1, $2, $3, $4, $5, $6) returning id',
        [taskId, title, mime, content.length, folder ? null : content, userId],
      );
      if (folder) {
        // written before the row commits: a failed write rolls the row back; a failed commit leaves a stray file only
        await mkdir(join(folder, String(taskId)), { recursive: true });
        await writeFile(fileOf(taskId, id), content);
      }
      return id;
    },
    async read(db, id) {
      const [row] = await db.query<{ task_id: number; mime: string; data: Uint8Array | null }>(
        'select task_id, mime, data from bc.task_photo where id = $1',
        [id],
      );
      if (!row) return undefined;
      const content = row.data
        ? Buffer.from(row.data)
        : folder
          ? await readFile(fileOf(row.task_id, id)).catch(() => undefined)
          : undefined;
      return content ? { taskId: row.task_id, mime: row.mime, content } : undefined;
    },
    async dropTask(taskId) {
      if (folder) await rm(join(folder, String(taskId)), { recursive: true, force: true });
    },
  };
}
