import type { FastifyRequest } from 'fastify';
import type { Db, Queryable } from '../db/types';
import { HEADERS } from '../../shared/constants';

export interface UserActionEntry {
  userId?: number;
  action: string;
  object?: string;
  objectId?: string | number;
  before?: unknown;
  after?: unknown;
}

/** Appends to the user-actions journal; nothing in the API edits or deletes its rows. */
export class JournalService {
  constructor(private readonly db: Db) {}

  async record(request: FastifyRequest, entry: UserActionEntry, tx: Queryable = this.db): Promise<void> {
    const pageHeader = request.headers[HEADERS.pageId];
    await tx.query(
      `insert into app.user_action (user_id, username, page_id, action, object, object_id, before, after, ip)
       values ($1, (select username from app.users where id = $1), $2, $3, $4, $5, $6, $7, $8)`,
      [
        entry.userId ?? request.user?.id ?? null,
        typeof pageHeader === 'string' ? pageHeader.slice(0, 200) : null,
        entry.action,
        entry.object ?? null,
        entry.objectId === undefined ? null : String(entry.objectId),
        entry.before === undefined ? null : JSON.stringify(entry.before),
        entry.after === undefined ? null : JSON.stringify(entry.after),
        request.ip,
      ],
    );
  }
}
