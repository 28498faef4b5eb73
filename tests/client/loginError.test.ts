import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

/**
 * The login form's message (spec section 8, Login: "the server's error body or 'Сервер недоступен'"), through
 * the real login call and http client, in the console's mode and the field app's.
 */
type Session = typeof import('../../src/web/providers/session');
type Client = typeof import('../../src/web/providers/httpClient');
type LoginError = typeof import('../../src/web/login/loginError');

let session: Session;
let client: Client;
let loginError: LoginError;

beforeEach(async () => {
  vi.resetModules();
  vi.stubGlobal('window', { location: { pathname: '/', assign: vi.fn() } });
  session = await import('../../src/web/providers/session');
  client = await import('../../src/web/providers/httpClient');
  loginError = await import('../../src/web/login/loginError');
});

afterEach(() => {
  vi.unstubAllGlobals();
});

const answer = (status: number, body: string, type = 'application/json') =>
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => new Response(body === '' ? null : body, { status, headers: body === '' ? {} : { 'content-type': type } })),
  );

async function loginMessage(): Promise<string> {
  const failure = await session.login('admin', 'wrong').then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(failure).toBeInstanceOf(client.HttpError);
  return loginError.loginErrorText(failure, 'ru');
}

describe.each([
  ['console', 'server-error'],
  ['field app', 'no-connection'],
] as const)('login message in the %s', (_name, noResponse) => {
  beforeEach(() => client.configureHttpClient({ noResponse }));

  it.each([400, 401, 403, 404, 429, 500, 502, 503])('an error status %i with an empty body reads "Сервер недоступен"', async (status) => {
    answer(status, '');
    expect(await loginMessage()).toBe('Сервер недоступен');
  });

  it('a body that is not the server\'s message list reads "Сервер недоступен" too', async () => {
    answer(502, '<html>Bad Gateway</html>', 'text/html');
    expect(await loginMessage()).toBe('Сервер недоступен');
  });

  it("shows the server's message when it sent one", async () => {
    answer(401, JSON.stringify({ messages: ['user_blocked'] }));
    expect(await loginMessage()).toBe('Пользователь заблокирован');
  });

  it('reads "Сервер недоступен" when nothing answers', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        throw new TypeError('Failed to fetch');
      }),
    );
    expect(await loginMessage()).toBe('Сервер недоступен');
  });
});
