/**
 * The files the server starts in another thread or process. The server runs either from its TypeScript
 * sources through tsx (development, tests, benchmarks) or from the bundle `npm start` builds into
 * dist/server (scripts/buildServer.mjs), which needs neither tsx nor the sources' transpiling at run time.
 */
const BUNDLED = new URL('.', import.meta.url).pathname.endsWith('/dist/server/');

const SOURCES = {
  pgliteWorker: './db/pgliteWorkerBoot.mjs',
  demoLoader: './db/demo/demoLoaderMain.ts',
} as const;
export type EntryPoint = keyof typeof SOURCES;

/** Where an entry point is, and the Node arguments a child process needs to run it. */
export function entryPoint(name: EntryPoint): { url: URL; execArgv: string[] } {
  if (BUNDLED) return { url: new URL(`./${name}.mjs`, import.meta.url), execArgv: [] };
  return { url: new URL(SOURCES[name], import.meta.url), execArgv: name === 'demoLoader' ? ['--import', 'tsx'] : [] };
}

/** A file of the project (media, package.json): src/server and dist/server are both two folders below its root. */
export const projectFile = (path: string): URL => new URL(`../../${path}`, import.meta.url);
