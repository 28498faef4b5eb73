// The PGlite worker's entry: a worker thread does not inherit the parent's TypeScript loader, so it registers
// tsx itself before loading the TypeScript worker (the same loader scripts/start.mjs uses).
const { register } = await import('tsx/esm/api');
register();
await import('./pgliteWorker.ts');
