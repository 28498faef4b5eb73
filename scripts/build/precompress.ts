import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants } from 'node:zlib';
import { gzipAsync } from '@gfx/zopfli';
import type { Plugin } from 'vite';

const brotli = promisify(brotliCompress);
/**
 * Zopfli's gzip: 3–4 % smaller than zlib's level 9 and read by every browser. More iterations than 1 gain a few
 * hundred bytes on the largest chunk for seconds of build time.
 */
const ZOPFLI = { numiterations: 1 };

/** Text files worth compressing; images and fonts are compressed already. */
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|webmanifest|wasm|txt|xml|map)$/i;
/** Below this a compressed copy saves less than its headers cost. */
const MIN_BYTES = 1024;

async function filesUnder(folder: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) out.push(...(await filesUnder(path)));
    else out.push(path);
  }
  return out;
}

/**
 * Writes a brotli (.br, quality 11) and a gzip (.gz, Zopfli) sibling of every compressible built file, after
 * everything else is written (the service worker included); the server sends them to browsers that accept
 * them (@fastify/static preCompressed). Compressing at build costs the server nothing per request. Chromium
 * asks for brotli from https only: a phone on plain http gets the gzip copies.
 */
export function precompress(outDir: string): Plugin {
  return {
    name: 'precompress',
    apply: 'build',
    closeBundle: {
      order: 'post',
      sequential: true,
      async handler() {
        const files = (await filesUnder(outDir)).filter((file) => COMPRESSIBLE.test(file));
        await Promise.all(
          files.map(async (file) => {
            if ((await stat(file)).size < MIN_BYTES) return;
            const data = await readFile(file);
            const [br, gz] = await Promise.all([
              brotli(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: data.length } }),
              gzipAsync(data, ZOPFLI),
            ]);
            if (br.length < data.length) await writeFile(`${file}.br`, br);
            if (gz.length < data.length) await writeFile(`${file}.gz`, gz);
          }),
        );
      },
    },
  };
}
