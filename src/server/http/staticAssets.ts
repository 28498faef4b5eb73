import { relative, sep } from 'node:path';
import type { FastifyStaticOptions } from '@fastify/static';

/**
 * How the built front ends travel (the field app's "fast on a phone"): each file as its precompressed
 * brotli or gzip sibling when the browser takes one (the build writes them, vite.config.ts), hashed files
 * under assets/ cached for a year as immutable, the pages, the service worker and the manifest revalidated
 * on every load (no-cache) so a new version arrives at once, anything else for an hour.
 */
export const IMMUTABLE = 'public, max-age=31536000, immutable';
export const REVALIDATE = 'no-cache';
const HOUR = 'public, max-age=3600';

/** Cache-Control of a file of the built front ends, by its path inside the folder. */
export function cacheControlFor(path: string): string {
  const file = path
    .split(sep)
    .join('/')
    .replace(/\.(br|gz)$/, '');
  if (file.startsWith('assets/')) return IMMUTABLE;
  if (file.endsWith('.html') || file.endsWith('sw.js') || file.endsWith('.webmanifest')) return REVALIDATE;
  return HOUR;
}

export function frontEndStaticOptions(root: string): FastifyStaticOptions {
  return {
    root,
    wildcard: false,
    index: false,
    preCompressed: true,
    cacheControl: false,
    setHeaders: (reply, path) => {
      reply.header('cache-control', cacheControlFor(relative(root, path)));
    },
  };
}
