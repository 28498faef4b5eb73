// `npm test`: everything a change must pass: the formatting (prettier), the import rules (.dependency-cruiser.cjs),
// type checks, unit and API
// tests (Vitest; on PostgreSQL too when TEST_DATABASE_URL is set), the production build, and the e2e tests in
// Debian's Chromium (Playwright).
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { spawnSync } from 'node:child_process';

const CHROMIUM = '/usr/bin/chromium';
const run = (label, command, args, env = {}) => {
  console.log(`\n=== ${label} ===`);
  const result = spawnSync(command, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  return result.status === 0;
};

function ensureChromium() {
  if (existsSync(CHROMIUM)) return true;
  if (process.getuid?.() !== 0) {
    console.error(`Chromium is missing: install Debian's package first (sudo apt-get update && sudo apt-get install -y chromium).`);
    return false;
  }
  return run('installing Debian Chromium', 'bash', [
    '-c',
    'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium',
  ]);
}

mkdirSync('.tmp', { recursive: true });
rmSync('.tmp/vitest.json', { force: true });
rmSync('.tmp/playwright.json', { force: true });
const only = process.argv[2];
const steps = [];
if (!only || only === 'unit') {
  steps.push(() => run('formatting (prettier)', 'npm', ['run', '--silent', 'format:check']));
  steps.push(() => run('import rules', 'npm', ['run', '--silent', 'lint:imports']));
  steps.push(() => run('type check', 'npx', ['tsc', '--noEmit', '-p', '.']));
  steps.push(() =>
    run('unit and API tests', 'npx', ['vitest', 'run', '--reporter=default', '--reporter=json', '--outputFile.json=.tmp/vitest.json']),
  );
}
if (!only || only === 'e2e') {
  steps.push(ensureChromium);
  steps.push(() => run('build', 'npx', ['vite', 'build', '--logLevel', 'warn']));
  steps.push(() =>
    run('e2e tests (Chromium)', 'npx', ['playwright', 'test', '--reporter=list,json'], {
      PLAYWRIGHT_JSON_OUTPUT_NAME: '.tmp/playwright.json',
    }),
  );
}

let ok = true;
for (const step of steps) ok = step() && ok;

let passed = 0;
let failed = 0;
if (existsSync('.tmp/vitest.json')) {
  const report = JSON.parse(readFileSync('.tmp/vitest.json', 'utf8'));
  passed += report.numPassedTests;
  failed += report.numFailedTests;
}
if (existsSync('.tmp/playwright.json')) {
  const { stats } = JSON.parse(readFileSync('.tmp/playwright.json', 'utf8'));
  passed += stats.expected + stats.flaky;
  failed += stats.unexpected;
}
if (!ok && failed === 0) failed = 1; // a broken import rule, a failed type check or build counts too
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(ok ? 0 : 1);
