import type { FastifyRequest } from 'fastify';
import type { Db, Queryable } from '../db/types';
import { HEADERS } from '../../shared/constants';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set once the request's write is in the user-actions journal, so the generic write hook adds no second row. */
    journaled: boolean;
  }
}

export interface UserActionEntry {
  userId?: number;
  action: string;
  object?: string;
  objectId?: string | number;
  before?: unknown;
  after?: unknown;
  /** The request as received (path parameters, redacted body): what the generic write hook stores. */
  request?: unknown;
}

/** Appends to the user-actions journal; nothing in the API edits or deletes its rows. */
export class JournalService {
  constructor(private readonly db: Db) {}

  async record(request: FastifyRequest, entry: UserActionEntry, tx: Queryable = this.db): Promise<void> {
    const pageHeader = request.headers[HEADERS.pageId];
    await tx.query(
      `insert into app.user_action (user_id, username, page_id, action, object, object_id, before, after, request, ip)
       values ($1, (select username from app.users where id = $1), $2, $3, $4, $5, $6, $7, $8, $9)`,
      [
        entry.userId ?? request.user?.id ?? null,
        typeof pageHeader === 'string' ? pageHeader.slice(0, 200) : null,
        entry.action,
        entry.object ?? null,
        entry.objectId === undefined ? null : String(entry.objectId),
        toJson(entry.before),
        toJson(entry.after),
        toJson(entry.request),
        request.ip,
      ],
    );
    request.journaled = true;
  }
}

const toJson = (value: unknown): string | null => (value === undefined ? null : JSON.stringify(value));
