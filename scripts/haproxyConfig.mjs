// The HAProxy configuration in front of several server processes: deploy/haproxy.cfg is its output for two
// processes on one machine, and `npm run cluster` (scripts/cluster.mjs) writes it for its N processes.

/**
 * @typedef {{ name: string, host: string, port: number, egtsPort?: number }} Backend
 * @typedef {{ host?: string, port: number, egtsPort?: number, servers: Backend[] }} ClusterLayout
 */

/**
 * The configuration for `layout`: HTTP on `port` balanced over the servers with health checks on /api/health,
 * and, when `egtsPort` is given, EGTS terminals' TCP connections on it, each kept on one server.
 * @param {ClusterLayout} layout
 * @returns {string}
 */
export function haproxyConfig({ host = '0.0.0.0', port, egtsPort, servers }) {
  const http = servers.map((s) => `    server ${s.name} ${s.host}:${s.port} check`);
  const egts = servers.filter((s) => s.egtsPort).map((s) => `    server ${s.name} ${s.host}:${s.egtsPort} check send-proxy-v2`);
  const lines = [
    '# HAProxy in front of the server processes of one installation (docs/deployment.md, «Behind HAProxy»).',
    '# Written by scripts/haproxyConfig.mjs; `npm run cluster` writes it for CLUSTER_PROCESSES processes.',
    'global',
    '    # Connections at once follow its file limit (two descriptors each): raise LimitNOFILE for many terminals.',
    '    log stderr format short local0 notice',
    '',
    'defaults',
    '    log global',
    '    option dontlognull',
    '    timeout connect 2s',
    '    # A stream sends a comment every GEO_HEARTBEAT_S (15 s), so a minute of silence means a dead client.',
    '    timeout client 1m',
    '    # Exports and reports stream for a long time; the server bounds its own queries (QUERY_TIMEOUT_LONG_MS).',
    '    timeout server 10m',
    '    timeout http-request 30s',
    '    timeout http-keep-alive 10s',
    '    # An upgraded connection (WebSocket) lives as long as both ends keep it.',
    '    timeout tunnel 1h',
    '    timeout check 2s',
    '    # A server that refuses the connection (killed, restarting) is skipped: the request goes to another at once.',
    '    retries 2',
    '    option redispatch 1',
    '    default-server inter 1s fall 2 rise 2',
    '',
    'frontend console',
    '    mode http',
    `    bind ${host}:${port}`,
    '    option httplog',
    "    # The server reads the client's address from it (TRUST_PROXY=true): HAProxy overwrites what the client sent.",
    '    http-request del-header X-Forwarded-For',
    '    option forwardfor',
    '    default_backend servers',
    '',
    'backend servers',
    '    mode http',
    '    # Long-lived map streams (text/event-stream) count as connections: the least busy process takes the next one.',
    '    # Any process answers any request (no sticky sessions); a stream stays on the process that opened it for',
    '    # as long as its connection lasts, and a move reaching another process is passed on over the bus.',
    '    balance leastconn',
    '    option httpchk',
    '    http-check send meth GET uri /api/health',
    '    http-check expect status 200',
    '    # A request a server accepted and then dropped (it died) is sent again only when sending it twice does no',
    '    # harm: reads, and telemetry batches (a position is stored once by vehicle and fix time).',
    '    retry-on conn-failure empty-response response-timeout',
    '    http-request disable-l7-retry if !METH_GET !METH_HEAD !{ path /api/v1/telemetry/positions }',
    ...http,
  ];
  if (egtsPort && egts.length > 0) {
    lines.push(
      '',
      '# A terminal keeps one TCP connection: it stays on the process it reached; a terminal whose process died',
      '# reconnects and lands on a live one.',
      'frontend egts',
      '    mode tcp',
      `    bind ${host}:${egtsPort}`,
      '    # Terminals are silent up to EGTS_IDLE_TIMEOUT_S (300 s) between packets.',
      '    timeout client 10m',
      '    default_backend egts_servers',
      '',
      'backend egts_servers',
      '    mode tcp',
      '    balance leastconn',
      '    timeout server 10m',
      "    # Each connection starts with a PROXY v2 header naming the terminal's address (its health checks with LOCAL):",
      '    # the processes run with EGTS_PROXY_PROTOCOL=true and record the terminal, not HAProxy.',
      ...egts,
    );
  }
  return `${lines.join('\n')}\n`;
}

/**
 * The layout of `count` processes on this machine: HTTP on the ports after `port`, EGTS on the ports after
 * `egtsPort` (none when it is 0).
 * @param {{ count: number, port: number, egtsPort: number, host?: string }} options
 * @returns {ClusterLayout}
 */
export function localLayout({ count, port, egtsPort, host }) {
  return {
    host,
    port,
    egtsPort: egtsPort || undefined,
    servers: Array.from({ length: count }, (_, i) => ({
      name: `tc${i + 1}`,
      host: '127.0.0.1',
      port: port + 1 + i,
      egtsPort: egtsPort ? egtsPort + 1 + i : undefined,
    })),
  };
}

/** deploy/haproxy.cfg: two processes (3001, 3002; EGTS 5163, 5164) behind ports 3000 and 5162. */
export const DEPLOY_CONFIG = 'deploy/haproxy.cfg';
export const deployLayout = () => localLayout({ count: 2, port: 3000, egtsPort: 5162 });
