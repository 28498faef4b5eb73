import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import { ApiError } from './errors';

/** One piece of a file made of pieces (an archive's segments): its size known up front, its bytes read when sent. */
export interface FilePart {
  size: number;
  read(): Promise<Buffer> | Buffer;
}

/** Inclusive byte positions. */
interface ByteRange {
  start: number;
  end: number;
}

/**
 * The range a Range header asks of a file of `total` bytes: undefined for the whole file (no header, a header
 * this server does not read, or several ranges, which RFC 9110 lets a server answer whole), null when the one
 * range asked lies outside the file.
 */
export function requestedRange(header: string | undefined, total: number): ByteRange | null | undefined {
  const match = /^bytes=(\d*)-(\d*)$/.exec(header?.trim() ?? '');
  if (!match || (match[1] === '' && match[2] === '')) return undefined;
  if (match[1] === '') {
    const suffix = Number(match[2]);
    return suffix > 0 && total > 0 ? { start: Math.max(0, total - suffix), end: total - 1 } : null;
  }
  const start = Number(match[1]);
  const end = match[2] === '' ? total - 1 : Math.min(Number(match[2]), total - 1);
  return start < total && start <= end ? { start, end } : null;
}

/** The bytes of `parts` from `range.start` to `range.end`, read a part at a time. */
async function* partBytes(parts: readonly FilePart[], range: ByteRange): AsyncGenerator<Buffer> {
  let offset = 0;
  for (const part of parts) {
    const partEnd = offset + part.size - 1;
    if (partEnd >= range.start && offset <= range.end) {
      const bytes = await part.read();
      yield bytes.subarray(Math.max(0, range.start - offset), Math.min(part.size, range.end - offset + 1));
    }
    offset += part.size;
    if (offset > range.end) return;
  }
}

/**
 * Sends a file made of parts with its Content-Length, and the part a Range header asks for (206 with
 * Content-Range; 416 when outside the file): a download cut by a restart or a dropped link resumes where it
 * stopped instead of starting over.
 */
export function sendFileParts(reply: FastifyReply, parts: readonly FilePart[], range: string | undefined): FastifyReply {
  const total = parts.reduce((sum, part) => sum + part.size, 0);
  reply.header('accept-ranges', 'bytes');
  const asked = requestedRange(range, total);
  if (asked === null) throw new ApiError(416, ['range_not_satisfiable'], { 'content-range': `bytes */${total}` });
  const whole = { start: 0, end: total - 1 };
  const sent = asked ?? whole;
  if (asked) reply.status(206).header('content-range', `bytes ${sent.start}-${sent.end}/${total}`);
  reply.header('content-length', String(Math.max(0, sent.end - sent.start + 1)));
  return reply.send(total === 0 ? Buffer.alloc(0) : Readable.from(partBytes(parts, sent)));
}
