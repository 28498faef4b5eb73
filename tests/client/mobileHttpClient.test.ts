import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

/**
 * The field app's mode of the shared http client: no answer leads to /no-connection (no message), leaving a
 * page aborts its requests silently; and the navigation bridge under the /m prefix. The console's defaults
 * are checked alongside, so the generalisation stays backward compatible.
 */
type Client = typeof import('../../src/web/providers/httpClient');
type Bridge = typeof import('../../src/web/routing/navigationBridge');
type Messages = typeof import('../../src/web/stores/messageStore');

let client: Client;
let bridge: Bridge;
let messages: Messages;
let visited: string[];
const location = { pathname: '/m/map', assign: vi.fn() };

beforeEach(async () => {
  vi.resetModules();
  vi.stubGlobal('window', { location });
  location.pathname = '/m/map';
  location.assign.mockReset();
  client = await import('../../src/web/providers/httpClient');
  bridge = await import('../../src/web/routing/navigationBridge');
  messages = await import('../../src/web/stores/messageStore');
  visited = [];
  bridge.setNavigator((path) => visited.push(path));
});

afterEach(() => {
  vi.unstubAllGlobals();
});

const noAnswer = () =>
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => {
      throw new TypeError('Failed to fetch');
    }),
  );

describe('http client modes', () => {
  it('by default (the console) shows "Ошибка" and goes to /server-error when nothing answers', async () => {
    noAnswer();
    location.pathname = '/map';
    await expect(client.getJson('/api/v1/auth/current')).rejects.toMatchObject({ status: 0 });
    expect(visited).toEqual(['/server-error']);
    expect(messages.getMessages().map((m) => m.text)).toEqual(['Ошибка']);
  });

  it('in the field app goes to /no-connection, without a message', async () => {
    noAnswer();
    client.configureHttpClient({ noResponse: 'no-connection' });
    await expect(client.getJson('/api/v1/auth/current')).rejects.toMatchObject({ status: 0 });
    expect(visited).toEqual(['/no-connection']);
    expect(messages.getMessages()).toEqual([]);
  });

  it('aborts the requests of the page left, silently, and sends the next ones with a fresh signal', async () => {
    const signals: AbortSignal[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(
        (_url: string, init: RequestInit) =>
          new Promise<Response>((_resolve, reject) => {
            signals.push(init.signal!);
            init.signal!.addEventListener('abort', () => reject(new DOMException('The operation was aborted.', 'AbortError')));
          }),
      ),
    );
    const pages = await import('../../src/mobile/routing/pageRequests');
    client.configureHttpClient({ noResponse: 'no-connection', pageSignal: pages.pageSignal });
    const pending = client.getJson('/api/v1/map/filters');
    pages.leavePage();
    const error = await pending.catch((e: unknown) => e);
    expect(client.isAbortError(error)).toBe(true);
    expect(visited).toEqual([]);
    expect(messages.getMessages()).toEqual([]);
    void client.getJson('/api/v1/map/filters').catch(() => undefined);
    expect(signals[1].aborted).toBe(false);
  });

  it("joins the caller's own signal to the page's", async () => {
    let seen: AbortSignal | undefined;
    vi.stubGlobal(
      'fetch',
      vi.fn(async (_url: string, init: RequestInit) => {
        seen = init.signal ?? undefined;
        return new Response('{}', { headers: { 'content-type': 'application/json' } });
      }),
    );
    const pages = await import('../../src/mobile/routing/pageRequests');
    client.configureHttpClient({ pageSignal: pages.pageSignal });
    const own = new AbortController();
    await client.getJson('/api/v1/x', { signal: own.signal });
    expect(seen).not.toBe(own.signal);
    own.abort();
    expect(seen?.aborted).toBe(true);
  });
});

describe('messages and pages', () => {
  const badRequest = (body = '{"messages":["pdm_series_too_many"]}') =>
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(body, { status: 400, headers: { 'content-type': 'application/json' } })),
    );

  it('shows the codes translated, not their details (the field at fault); a message without a code upper-cased', async () => {
    badRequest('{"messages":["bad_request","vehicle"]}');
    await expect(client.getJson('/api/v1/reports/pdm/charts')).rejects.toMatchObject({ status: 400 });
    expect(messages.getMessages().map((m) => m.text)).toEqual(['Неверный запрос']);
    badRequest('{"messages":["something odd"]}');
    await expect(client.getJson('/api/v1/x')).rejects.toMatchObject({ status: 400 });
    expect(messages.getMessages().map((m) => m.text)).toEqual(['Неверный запрос', 'SOMETHING ODD']);
  });

  it('an error leaves with the page it was raised on; a success follows the user', async () => {
    badRequest();
    messages.enterPage('/pdm/charts');
    await expect(client.getJson('/api/v1/reports/pdm/charts')).rejects.toMatchObject({ status: 400 });
    messages.showMessage('Сохранено', 'success');
    expect(messages.getMessages().map((m) => m.text)).toEqual(['Слишком много рядов на графике', 'Сохранено']);
    messages.enterPage('/pdm/charts');
    expect(messages.getMessages()).toHaveLength(2);
    messages.enterPage('/pdm/heatmap');
    expect(messages.getMessages().map((m) => m.text)).toEqual(['Сохранено']);
  });

  it('keeps the error that sends the user to its own page (access denied)', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('{}', { status: 403, headers: { 'content-type': 'application/json' } })),
    );
    location.pathname = '/users';
    messages.enterPage('/users');
    await expect(client.getJson('/api/v1/users')).rejects.toMatchObject({ status: 403 });
    messages.enterPage('/access-denied');
    expect(messages.getMessages().map((m) => m.text)).toEqual(['Отказано в доступе']);
  });
});

describe('navigation bridge under a prefix', () => {
  it('does not navigate to the page already shown, and falls back to the full address', () => {
    bridge.setBasePath('/m');
    location.pathname = '/m/no-connection';
    bridge.navigateTo('/no-connection');
    expect(visited).toEqual([]);
    location.pathname = '/m';
    bridge.navigateTo('/');
    expect(visited).toEqual([]);
    bridge.setNavigator(null);
    bridge.navigateTo('/no-connection');
    expect(location.assign).toHaveBeenCalledWith('/m/no-connection');
    expect(bridge.browserPath('/')).toBe('/m/');
  });

  it('keeps the console paths as they are without a prefix', () => {
    location.pathname = '/users';
    bridge.navigateTo('/users');
    bridge.navigateTo('/access-denied');
    expect(visited).toEqual(['/access-denied']);
  });
});
