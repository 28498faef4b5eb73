import { Redis } from 'ioredis';

/** The Redis the bus tests use (TEST_REDIS_URL). */
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** Whether a Redis answers PING at the URL within a second. */
export async function redisAvailable(url = TEST_REDIS_URL): Promise<boolean> {
  const client = new Redis(url, { lazyConnect: true, connectTimeout: 1000, maxRetriesPerRequest: 0, retryStrategy: () => null });
  client.on('error', () => undefined);
  try {
    await client.connect();
    return (await client.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    client.disconnect();
  }
}

/**
 * Whether the tests of several server processes can run (PostgreSQL and Redis); says why not, once, when they
 * cannot.
 */
export async function clusterTestsRunnable(what: string): Promise<boolean> {
  if (!process.env.TEST_DATABASE_URL) {
    console.warn(`${what}: skipped, they need PostgreSQL (TEST_DATABASE_URL) and Redis (TEST_REDIS_URL, ${TEST_REDIS_URL})`);
    return false;
  }
  if (!(await redisAvailable())) {
    console.warn(`${what}: skipped, no Redis answers at ${TEST_REDIS_URL} (TEST_REDIS_URL)`);
    return false;
  }
  return true;
}
