import { group, number, text } from './variables';

/**
 * What `npm run cluster` (scripts/cluster.mjs, a plain Node script) reads besides the server's own variables;
 * declared here for the page and the check that every variable read is declared.
 */
export const clusterVariables = group(
  '`npm run cluster`',
  {
    clusterProcesses: number('CLUSTER_PROCESSES', {
      default: 2,
      min: 1,
      round: true,
      meaning:
        'server processes started, on the ports after `PORT` (EGTS on the ports after `EGTS_PORT`), behind HAProxy on `PORT` and `EGTS_PORT`',
    }),
    clusterHaproxy: text('CLUSTER_HAPROXY', { default: 'haproxy', meaning: 'the HAProxy program run in front of them' }),
  },
  {
    intro: `\`npm run cluster\` runs several server processes of one installation on this machine behind HAProxy (see «Behind
HAProxy» in [deployment.md](deployment.md#behind-haproxy)): \`DATABASE_URL\` (PostgreSQL) is required, \`BUS_URL\` defaults
to \`redis://127.0.0.1:6379\` there, and each process gets its own spool \`DATA_DIR/track-spool-<port>\` (one killed and not started again has its spool
written by a live one: see «A dead process's spool» in [deployment.md](deployment.md#a-dead-processs-spool)).`,
  },
);
