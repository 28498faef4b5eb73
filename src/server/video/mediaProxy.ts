import type { StreamTokens } from './streamTokens';

/**
 * The server's proxy in front of a recorder's media server (DESIGN.md, "Video"): the browser gets the media
 * server's playlist with every address in it replaced by one of ours, signed, so it can fetch exactly what
 * the playlist lists and nothing else, and never sees the media server's address or credentials.
 */
export class UpstreamError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

const PLAYLIST_TYPES = /mpegurl/i;

export interface Fetched {
  status: number;
  contentType: string;
  body: Buffer;
}

/** GET with the media server's credentials and a time limit; a refused or unreachable server is an UpstreamError. */
export async function fetchUpstream(url: string, authorization: string, timeoutMs: number): Promise<Fetched> {
  let response: Response;
  try {
    response = await fetch(url, { headers: { authorization }, signal: AbortSignal.timeout(timeoutMs), redirect: 'error' });
  } catch (err) {
    throw new UpstreamError(502, `media server unreachable: ${(err as Error).message}`);
  }
  const body = Buffer.from(await response.arrayBuffer());
  if (!response.ok) throw new UpstreamError(response.status, `media server answered ${response.status}`);
  return { status: response.status, contentType: response.headers.get('content-type') ?? '', body };
}

export const isPlaylist = (url: string, contentType: string): boolean =>
  PLAYLIST_TYPES.test(contentType) || /\.m3u8?$/i.test(new URL(url).pathname);

/** The signed local address of an upstream address, relative to the stream's folder. */
export function proxiedUri(tokens: StreamTokens, token: string, absolute: string): string {
  const u = Buffer.from(absolute).toString('base64url');
  return `upstream?u=${u}&s=${tokens.sign(`${token}|${u}`)}`;
}

/** The upstream address a proxied one stands for, when its signature holds. */
export function upstreamOf(tokens: StreamTokens, token: string, u: string, s: string): string | undefined {
  if (!tokens.verifySignature(`${token}|${u}`, s)) return undefined;
  return Buffer.from(u, 'base64url').toString('utf8');
}

/**
 * A playlist with its addresses (segment lines and URI="..." attributes) made ours. Addresses off the media
 * server's own origin are dropped: the proxy reaches that server and no other.
 */
export function rewritePlaylist(text: string, base: string, local: (absolute: string) => string): string {
  const origin = new URL(base).origin;
  const map = (uri: string): string | undefined => {
    const absolute = new URL(uri, base);
    return absolute.origin === origin ? local(absolute.toString()) : undefined;
  };
  const out: string[] = [];
  for (const line of text.split(/\r?\n/)) {
    const trimmed = line.trim();
    if (trimmed === '') continue;
    if (!trimmed.startsWith('#')) {
      const mapped = map(trimmed);
      if (mapped) out.push(mapped);
      else if (out.at(-1)?.startsWith('#EXTINF')) out.pop();
      continue;
    }
    out.push(
      trimmed.replace(/URI="([^"]*)"/g, (whole, uri: string) => {
        const mapped = map(uri);
        return mapped ? `URI="${mapped}"` : whole;
      }),
    );
  }
  return `${out.join('\n')}\n`;
}
