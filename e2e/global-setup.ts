import type { FullConfig } from '@playwright/test';
import type { HistoryFillStatus } from '../src/shared/historyFill';

/** How long a fresh start's demo history may take to fill (the test-scale demo takes a few minutes). */
const HISTORY_TIMEOUT_MS = 15 * 60_000;

/**
 * Waits until the fresh server's demo history has filled (passenger flow, vehicle work data): the specs read
 * it, and while it is written every request waits behind it, so a spec run meanwhile measures the fill, not
 * the screen. The history's arrival itself is e2e/passengers.spec.ts's first test.
 */
export default async function globalSetup(config: FullConfig): Promise<void> {
  const baseURL = config.projects[0].use.baseURL!;
  const started = Date.now();
  for (;;) {
    const health = await fetch(`${baseURL}/api/health`)
      .then((r) => r.json() as Promise<{ history?: HistoryFillStatus }>)
      .catch(() => null);
    if (health?.history?.complete) break;
    if (Date.now() - started > HISTORY_TIMEOUT_MS)
      throw new Error(`demo history not filled in ${HISTORY_TIMEOUT_MS / 60_000} min: ${JSON.stringify(health?.history)}`);
    await new Promise((resolve) => setTimeout(resolve, 2000));
  }
  // the engine is reopened once the fill ends (its memory given back): a login answers when it is open again
  const login = await fetch(`${baseURL}/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'viewer', password: 'viewer123' }),
  });
  if (!login.ok) throw new Error(`login after the history fill: HTTP ${login.status}`);
  console.log(`demo history filled; the specs start ${Math.round((Date.now() - started) / 1000)} s after the server answered`);
}
