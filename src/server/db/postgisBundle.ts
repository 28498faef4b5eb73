import { existsSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gunzipSync, gzipSync } from 'node:zlib';
import type { Extension } from '@electric-sql/pglite';
import { postgis } from '@electric-sql/pglite-postgis';

/** What the product uses of the PostGIS bundle: the postgis extension and PROJ's data, not raster, topology or tiger. */
const KEPT = /^(lib\/postgresql\/postgis-3\.so|share\/postgresql\/extension\/postgis(\.control|--.*\.sql)|share\/proj\/.*|.*\/)$/;

/** The tar entries of `tar` whose names match `keep`, copied block for block (headers included). */
function filterTar(tar: Buffer, keep: (name: string) => boolean): Buffer {
  const kept: Buffer[] = [];
  for (let offset = 0; offset + 512 <= tar.length; ) {
    const header = tar.subarray(offset, offset + 512);
    if (header.every((byte) => byte === 0)) break;
    const field = (start: number, length: number) => header.subarray(start, start + length).toString('latin1').replace(/\0.*$/s, '');
    const prefix = field(345, 155);
    const name = (prefix ? `${prefix}/` : '') + field(0, 100);
    const size = parseInt(field(124, 12).trim() || '0', 8);
    const end = offset + 512 + Math.ceil(size / 512) * 512;
    if (keep(name.replace(/^\.\//, ''))) kept.push(tar.subarray(offset, end));
    offset = end;
  }
  return Buffer.concat([...kept, Buffer.alloc(1024)]);
}

/**
 * PGlite compiles every library of an extension bundle at start and keeps its files in memory. The PostGIS
 * bundle carries three 16 MB libraries (postgis, raster, topology): the two unused ones cost about 300 MB of
 * each server's memory. This is the same extension from a bundle holding only what the product uses, built
 * once from the installed package and kept in the system's temporary folder.
 */
export function postgisTrimmed(): Extension {
  return {
    name: 'postgis',
    async setup(pg, emscriptenOpts) {
      const result = await postgis.setup(pg, emscriptenOpts);
      if (!result.bundlePath) return result;
      const source = result.bundlePath;
      const { size, mtimeMs } = statSync(source);
      const target = join(tmpdir(), `pglite-postgis-${size}-${Math.round(mtimeMs)}.tar.gz`);
      if (!existsSync(target)) {
        const partial = `${target}.${process.pid}.${Math.random().toString(36).slice(2)}`;
        writeFileSync(partial, gzipSync(filterTar(gunzipSync(readFileSync(source)), (name) => KEPT.test(name))));
        renameSync(partial, target); // atomic: servers and test workers starting together never read half a file
      }
      return { ...result, bundlePath: pathToFileURL(target) };
    },
  };
}
