import { existsSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gunzipSync, gzipSync } from 'node:zlib';
import type { Extension, PGlite } from '@electric-sql/pglite';
import { postgis } from '@electric-sql/pglite-postgis';

/**
 * What the product uses of the PostGIS bundle: the postgis library, its control file and PROJ's data (geography
 * and ST_Transform read the spatial reference systems from it: without it they answer nothing at all); not
 * raster, topology, tiger or the upgrade scripts. The install script is needed only by a database that has
 * not created the extension yet.
 */
const LIBRARY = 'lib/postgresql/postgis-3.so';
const KEPT = {
  install: /^(lib\/postgresql\/postgis-3\.so|share\/postgresql\/extension\/postgis(\.control|--\d+\.\d+\.\d+\.sql)|share\/proj\/.*|.*\/)$/,
  run: /^(lib\/postgresql\/postgis-3\.so|share\/postgresql\/extension\/postgis\.control|share\/proj\/.*|.*\/)$/,
} as const;
export type PostgisBundle = keyof typeof KEPT;

/** The tar entries of `tar` whose names match `keep`, copied block for block (headers included). */
function filterTar(tar: Buffer, keep: (name: string) => boolean): Buffer {
  const kept: Buffer[] = [];
  for (let offset = 0; offset + 512 <= tar.length;) {
    const header = tar.subarray(offset, offset + 512);
    if (header.every((byte) => byte === 0)) break;
    const field = (start: number, length: number) =>
      header
        .subarray(start, start + length)
        .toString('latin1')
        .replace(/\0.*$/s, '');
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
 * PGlite compiles every library of an extension bundle at start and keeps its files in memory, two to three
 * copies of each. The PostGIS bundle carries three 16 MB libraries (postgis, raster, topology) and 23 MB of
 * SQL scripts: the unused ones cost about 400 MB of each server's memory. This is the same extension from a
 * bundle holding only what the product uses (`run`: an installed extension; `install`: with its install
 * script), built once from the installed package and kept in the system's temporary folder.
 */
export function postgisTrimmed(bundle: PostgisBundle): Extension {
  return {
    name: 'postgis',
    async setup(pg, emscriptenOpts) {
      const result = await postgis.setup(pg, emscriptenOpts);
      if (!result.bundlePath) return result;
      const source = result.bundlePath;
      const { size, mtimeMs } = statSync(source);
      const target = join(tmpdir(), `pglite-postgis-${bundle}-${size}-${Math.round(mtimeMs)}.tar.gz`);
      if (!existsSync(target)) {
        const partial = `${target}.${process.pid}.${Math.random().toString(36).slice(2)}`;
        writeFileSync(partial, gzipSync(filterTar(gunzipSync(readFileSync(source)), (name) => KEPT[bundle].test(name))));
        renameSync(partial, target); // atomic: servers and test workers starting together never read half a file
      }
      return {
        ...result,
        bundlePath: pathToFileURL(target),
        emscriptenOpts: { ...emscriptenOpts, preloadPlugins: withLibraryRelease(emscriptenOpts.preloadPlugins) },
      };
    },
  };
}

/** Emscripten's preload plugin: how a file of an extension bundle is handled as it is unpacked. */
interface PreloadPlugin {
  canHandle(name: string): boolean;
  handle(bytes: Uint8Array, name: string, onload: (bytes: Uint8Array) => void, onerror: () => void): void;
}

/**
 * Emscripten compiles an extension's library (`.so`) from its unpacked bytes, copies them into its file system,
 * and keeps the unpacked bytes too, in a closure of its loader, for as long as the engine runs: 16 MB for
 * PostGIS. This plugin hands each library to Emscripten's own loader (which Emscripten adds to the same list) and
 * lets go of the bytes once the library is compiled and copied: their buffer is detached, which frees it.
 */
function withLibraryRelease(given: PreloadPlugin[] = []): PreloadPlugin[] {
  // Emscripten adds its loader to this very list
  const plugins = [...given];
  const self: PreloadPlugin = {
    canHandle: (name) => name.endsWith('.so') && plugins.some((plugin) => plugin !== self && plugin.canHandle(name)),
    handle(bytes, name, onload, onerror) {
      const loader = plugins.find((plugin) => plugin !== self && plugin.canHandle(name))!;
      loader.handle(
        bytes,
        name,
        (loaded) => {
          onload(loaded);
          const { buffer } = bytes;
          // only a buffer of this library alone (a view into a larger one would take other files with it)
          if (buffer instanceof ArrayBuffer && bytes.byteOffset === 0 && bytes.byteLength === buffer.byteLength)
            structuredClone(buffer, { transfer: [buffer] });
        },
        onerror,
      );
    },
  };
  plugins.unshift(self);
  return plugins;
}

/** The parts of PGlite's Emscripten module that keep copies of the bundle (not in PGlite's public types). */
interface BundleHolder {
  mod?: { pg_extensions?: unknown; WASM_PREFIX: string; FS: { writeFile(path: string, data: Uint8Array): void } };
}

/**
 * Lets go of the two copies of the bundle PGlite keeps after start (about 45 MB): the unpacked archive, held by
 * the module's options though it is read only at start, and the file of the library, which Emscripten has
 * already compiled and answers `dlopen` from (PostgreSQL only checks the file exists). Checked by the
 * embedded-database test, which calls PostGIS after this.
 */
export function releaseBundleCopies(pg: PGlite): void {
  const mod = (pg as unknown as BundleHolder).mod;
  if (!mod) return;
  delete mod.pg_extensions;
  mod.FS.writeFile(`${mod.WASM_PREFIX}/${LIBRARY}`, new Uint8Array(0));
}
