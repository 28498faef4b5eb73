import { defineConfig } from '@playwright/test';

// E2E_PORT lets two checkouts run their e2e tests side by side (each takes E2E_PORT and the port after it).
const PORT = Number(process.env.E2E_PORT ?? 3199);
// E2E_SERVERS=1 runs every spec on one server (one spec alone starts no second demo city)
const SERVERS = process.env.E2E_SERVERS === '1' ? 1 : 2;
const url = (port: number) => `http://127.0.0.1:${port}`;
/**
 * The specs of the second server, about half of the run's time; every other spec runs on the first. Each server has
 * its own fresh database, and each runs one spec at a time, so no two specs ever share a server's data at once.
 */
const SECOND_SERVER = [
  'admin',
  'bc',
  'bundle',
  'dispatch',
  'equipment',
  'gtfs',
  'handbook-geometry',
  'handbook-import',
  'handbook-widgets',
  'handbooks',
  'journals',
  'map',
  'mends-pdm',
  'screens',
  'screenshots',
  'settings',
  'shell',
  'stored-markup',
];
const secondServer = new RegExp(`/(${SECOND_SERVER.join('|')})\\.spec\\.ts$`);

/**
 * End-to-end specs against the built, running product: `npx vite build` first (dist/client), then two servers
 * start, each on a fresh embedded database with the small demo data set, and the specs run on both at once, one
 * spec at a time on each. Debian's Chromium, never a downloaded browser.
 */
export default defineConfig({
  testDir: 'e2e',
  // the specs start once the fresh servers' demo history has filled
  globalSetup: './e2e/global-setup.ts',
  workers: SERVERS,
  fullyParallel: false,
  projects:
    SERVERS === 1
      ? [{ name: 'e2e', use: { baseURL: url(PORT) } }]
      : [
          { name: 'first', testIgnore: secondServer, workers: 1, use: { baseURL: url(PORT) } },
          { name: 'second', testMatch: secondServer, workers: 1, use: { baseURL: url(PORT + 1) } },
        ],
  retries: 0,
  timeout: 30_000,
  expect: { timeout: 7_000 },
  reporter: [['list']],
  outputDir: 'test-results',
  use: {
    locale: 'ru-RU',
    timezoneId: 'Europe/Moscow',
    screenshot: 'only-on-failure',
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  webServer: {
    command: `node scripts/e2e-server.mjs ${SERVERS}`,
    // one of the servers; the global set-up waits for every one
    url: `${url(PORT + SERVERS - 1)}/api/health`,
    timeout: 180_000,
    reuseExistingServer: false,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      PORT: String(PORT),
      HOST: '127.0.0.1',
      // one database per port (.tmp/e2e-data-<port>): two runs side by side never remove each other's
      DATA_DIR: '.tmp/e2e-data',
      DEMO_SCALE: 'test',
      LOG_LEVEL: 'warn',
      STATIC_DIR: 'dist/client',
      // the e2e server needs no EGTS listener (and must not compete for 5162 with a running console)
      EGTS_PORT: '0',
      // the specs try wrong passwords on purpose; keep the throttle out of their way
      LOGIN_ACCOUNT_FAILURES: '100',
      LOGIN_ADDRESS_FAILURES: '1000',
      // a demo rollout in e2e/equipment.spec.ts meets refusing terminals among the small fleet's online ones
      SIMULATOR_TERMINAL_REFUSE_PERCENT: '20',
      // parked vehicles report as often as moving ones, so a rollout reaches the whole small fleet within a minute
      SIMULATOR_PARKED_EVERY: '1',
    },
  },
});
