import { defineConfig } from '@playwright/test';

// E2E_PORT lets two checkouts run their e2e tests side by side.
const PORT = Number(process.env.E2E_PORT ?? 3199);

/**
 * End-to-end specs against the built, running product: `npx vite build` first (dist/client), then the
 * server starts on a fresh embedded database with the small demo data set. Debian's Chromium, never a
 * downloaded browser.
 */
export default defineConfig({
  testDir: 'e2e',
  // the specs start once the fresh server's demo history has filled
  globalSetup: './e2e/global-setup.ts',
  workers: 1,
  fullyParallel: false,
  retries: 0,
  timeout: 30_000,
  expect: { timeout: 7_000 },
  reporter: [['list']],
  outputDir: 'test-results',
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
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
    command: 'node scripts/e2e-server.mjs',
    url: `http://127.0.0.1:${PORT}/api/health`,
    timeout: 180_000,
    reuseExistingServer: false,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      PORT: String(PORT),
      HOST: '127.0.0.1',
      // one database per port: two runs side by side never remove each other's
      DATA_DIR: `.tmp/e2e-data-${PORT}`,
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
