import { SERVER_MALLOC_ENV, SERVER_NODE_ARGS } from '../../../scripts/serverLaunch.mjs';
import { flag, group, text } from './variables';

/**
 * What `npm start` (scripts/start.mjs, serverLaunch.mjs) reads: plain Node scripts run before any TypeScript, so
 * they read these themselves; declared here for the page and the check that every variable read is declared.
 */
export const startVariables = group(
  '`npm start`',
  {
    skipBuild: flag('SKIP_BUILD', {
      default: false,
      meaning:
        '`true` starts without building the front ends even when their sources changed since the last build (the server is bundled in any case)',
    }),
    mallocArenaMax: text('MALLOC_ARENA_MAX', {
      default: SERVER_MALLOC_ENV.MALLOC_ARENA_MAX,
      meaning:
        "glibc's allocator arenas (otherwise one per thread: the database worker, V8's compiler threads, libuv's pool, each holding freed memory)",
    }),
    mallocTrimThreshold: text('MALLOC_TRIM_THRESHOLD_', {
      default: SERVER_MALLOC_ENV.MALLOC_TRIM_THRESHOLD_,
      meaning: 'freed memory beyond this at the top of the heap is handed back to the system',
    }),
    mallocMmapThreshold: text('MALLOC_MMAP_THRESHOLD_', {
      default: SERVER_MALLOC_ENV.MALLOC_MMAP_THRESHOLD_,
      meaning: 'blocks this large are mapped on their own, and handed back when freed',
    }),
  },
  {
    intro: `\`npm start\` builds the front ends when their sources changed since the last build, bundles the server and
then runs it in place of npm's shell (\`exec sh dist/server/start.sh\`, written from \`scripts/serverLaunch.mjs\`), so the
server is npm's own child and a SIGTERM to npm stops it gracefully. The server process gets glibc's allocator settings below, with Node's \`${SERVER_NODE_ARGS.join(' ')}\`
(\`SERVER_NODE_ARGS\` in \`scripts/serverLaunch.mjs\`): about 250 MB less memory on the embedded engine. Values you set
win; set them yourself when you start \`dist/server/main.mjs\` another way.`,
  },
);
