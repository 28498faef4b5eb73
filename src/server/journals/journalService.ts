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

  /**
   * Outside a transaction (the write already committed) a row the database refuses is written again without
   * its documents, so who did what and when is never lost; inside one, the failure fails the write with it.
   */
  async record(request: FastifyRequest, entry: UserActionEntry, tx: Queryable = this.db): Promise<void> {
    try {
      await this.insert(request, entry, tx);
    } catch (error) {
      if (tx !== this.db) throw error;
      request.log.error({ err: error, action: entry.action }, 'user-action journal row refused: kept without its documents');
      const note = { unjournalable: true };
      await this.insert(
        request,
        {
          ...entry,
          before: entry.before === undefined ? undefined : note,
          after: entry.after === undefined ? undefined : note,
          request: note,
        },
        tx,
      );
    }
    request.journaled = true;
  }

  private async insert(request: FastifyRequest, entry: UserActionEntry, tx: Queryable): Promise<void> {
    const pageHeader = request.headers[HEADERS.pageId];
    await tx.query(
      `insert into app.user_action (user_id, username, page_id, action, object, object_id, before, after, request, ip)
       values ($1, (select username from app.users where id = $1), $2, $3, $4, $5, $6, $7, $8, $9)`,
      [
        entry.userId ?? request.user?.id ?? null,
        typeof pageHeader === 'string' ? storableText(pageHeader.slice(0, 200)) : null,
        storableText(entry.action),
        entry.object === undefined ? null : storableText(entry.object),
        entry.objectId === undefined ? null : storableText(String(entry.objectId)),
        toJson(entry.before),
        toJson(entry.after),
        toJson(entry.request),
        request.ip,
      ],
    );
  }
}

/** NUL and lone surrogates: no PostgreSQL text or jsonb holds them. */
const UNSTORABLE = /\u0000|\p{Cs}/gu;
const storableText = (text: string): string => text.replace(UNSTORABLE, '\uFFFD');

/** JSON that jsonb accepts: every string, keys included, made storable. */
const toJson = (value: unknown): string | null => (value === undefined ? null : JSON.stringify(storable(value)));

function storable(value: unknown): unknown {
  if (typeof value === 'string') return storableText(value);
  if (Array.isArray(value)) return value.map(storable);
  if (typeof value !== 'object' || value === null || value instanceof Date || ArrayBuffer.isView(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [storableText(key), storable(item)]));
}
