// Bundles the server for `npm start` (scripts/start.mjs): dist/server/main.mjs with its worker and loader
// entry points (src/server/entryPoints.ts) and the migrations. Packages stay in node_modules. Running the
// bundle instead of the sources through tsx starts faster and takes about 70 MB less memory.
import { cpSync, rmSync } from 'node:fs';
import { build } from 'esbuild';
import { writeHandbookRegistry } from './build/handbookRegistry.mjs';

const OUT = 'dist/server';
writeHandbookRegistry();
rmSync(OUT, { recursive: true, force: true });
await build({
  entryPoints: {
    main: 'src/server/main.ts',
    pgliteWorker: 'src/server/db/pgliteWorker.ts',
    demoLoader: 'src/server/db/demo/demoLoaderMain.ts',
  },
  outdir: OUT,
  outExtension: { '.js': '.mjs' },
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  sourcemap: true,
  logLevel: 'warning',
});
// Files the server reads at run time, relative to its modules (`new URL('./…', import.meta.url)`): in the bundle
// every module sits in dist/server, so they are copied beside it.
cpSync('src/server/db/migrations', `${OUT}/migrations`, { recursive: true });
cpSync('src/server/db/demo/assets', `${OUT}/assets`, { recursive: true });
cpSync('src/server/db/demo/rows', `${OUT}/rows`, { recursive: true });
