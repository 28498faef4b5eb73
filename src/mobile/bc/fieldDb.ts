import Dexie, { type Table } from 'dexie';
import type { TaskResultBody } from '../../shared/bc/report';
import type { ControllerTask, SettableStatus, TaskResultResponse } from '../../shared/bc/tasks';

/**
 * What the field app keeps on the phone (IndexedDB through Dexie), so a report survives a reload and a lost
 * connection: the report being filled, the submissions waiting to be sent (photos included), and the last
 * order and report read from the server to open them offline.
 */

export interface ReportDraft {
  taskId: number;
  userId: number;
  body: TaskResultBody;
  updatedAt: number;
}

interface OutboxBase {
  seq?: number;
  userId: number;
  taskId: number;
  /** The idempotency key: the server accepts a retried submission once. */
  key: string;
  createdAt: number;
  /** The server's refusal, translated; the item (and the later ones of its order) wait for a retry. */
  error?: string;
}
export type OutboxItem =
  | (OutboxBase & { kind: 'photo'; title: string; photo: Blob })
  | (OutboxBase & { kind: 'result'; body: TaskResultBody })
  | (OutboxBase & { kind: 'status'; status: SettableStatus });

export interface CachedWork {
  userId: number;
  task: ControllerTask | null;
  result?: TaskResultResponse;
  at: number;
}

class FieldDb extends Dexie {
  drafts!: Table<ReportDraft, number>;
  outbox!: Table<OutboxItem, number>;
  work!: Table<CachedWork, number>;

  constructor() {
    super('field-app');
    this.version(1).stores({ drafts: 'taskId', outbox: '++seq, taskId, userId', work: 'userId' });
  }
}

export const fieldDb = new FieldDb();
