import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Queryable } from '../db/types';
import type { SessionUser } from '../auth/sessions';

/**
 * Stream addresses carry a signed token instead of the session: hls.js fetches playlists and segments by
 * itself (a video element cannot send the Authorization header), and a segment is answered without a
 * database round trip. The token names exactly one camera's stream and expires; the key is the
 * installation's (app.video_secret), so every server process accepts what another signed.
 */
export interface StreamTicket {
  /** live: demo live; archive: a request's recording; ms: through the recorder's media server. */
  kind: 'live' | 'archive' | 'ms';
  vehicleId: number;
  dvrId: number;
  camera: number;
  /** The demo look of the camera (live and archive). */
  look: number;
  requestId?: number;
  /** Expiry, epoch seconds. */
  exp: number;
  /** Who asked for the address, and the start of their session's token hash: checked again at each playlist. */
  userId: number;
  session: string;
}

/** Characters of the session's token hash an address carries: enough to name it, short enough for the path. */
export const SESSION_TAG_LENGTH = 12;

/** Kinds as one letter: the token travels in every segment address and stays under Fastify's 100-character parameter limit. */
const KINDS = { live: 'l', archive: 'a', ms: 'm' } as const;
const KIND_OF = Object.fromEntries(Object.entries(KINDS).map(([kind, letter]) => [letter, kind])) as Record<string, StreamTicket['kind']>;

/** The user and session an address is issued to. */
export const viewer = (user: SessionUser): Pick<StreamTicket, 'userId' | 'session'> => ({
  userId: user.id,
  session: user.tokenHash.slice(0, SESSION_TAG_LENGTH),
});

export class StreamTokens {
  constructor(private readonly key: Buffer) {}

  /** The installation's key: read, or made once (the first process to start writes it). */
  static async open(db: Queryable): Promise<StreamTokens> {
    await db.query('insert into app.video_secret (id, secret) values (1, $1) on conflict (id) do nothing', [
      randomBytes(32).toString('hex'),
    ]);
    const [row] = await db.query<{ secret: string }>('select secret from app.video_secret where id = 1');
    return new StreamTokens(Buffer.from(row.secret, 'hex'));
  }

  /** An HMAC-SHA256 of the text, cut to 128 bits (22 characters). */
  sign(text: string): string {
    return createHmac('sha256', this.key).update(text).digest('base64url').slice(0, 22);
  }

  verifySignature(text: string, signature: string): boolean {
    const expected = Buffer.from(this.sign(text));
    const given = Buffer.from(signature);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  /** 'l-<vehicle>-<dvr>-<camera>-<look>-<request>-<expiry>-<user>-<session>.<signature>' */
  issue(ticket: Omit<StreamTicket, 'exp'>, ttlS: number, now = Date.now()): string {
    const body = [
      KINDS[ticket.kind],
      ticket.vehicleId,
      ticket.dvrId,
      ticket.camera,
      ticket.look,
      ticket.requestId ?? 0,
      Math.floor(now / 1000) + ttlS,
      ticket.userId,
      ticket.session,
    ].join('-');
    return `${body}.${this.sign(body)}`;
  }

  /** The ticket of a valid, unexpired token; undefined otherwise. */
  read(token: string, now = Date.now()): StreamTicket | undefined {
    const [body, signature, extra] = token.split('.');
    if (!body || !signature || extra !== undefined || !this.verifySignature(body, signature)) return undefined;
    const [letter, ...fields] = body.split('-');
    const session = fields.pop() ?? '';
    const [vehicleId, dvrId, camera, look, requestId, exp, userId] = fields.map(Number);
    const kind = KIND_OF[letter];
    if (!kind || fields.length !== 7 || exp * 1000 <= now) return undefined;
    return { kind, vehicleId, dvrId, camera, look, exp, userId, session, ...(requestId ? { requestId } : {}) };
  }
}
