import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SUGGESTION_TEXT_MAX } from '../../src/shared/constants';
import { cameraIds, orderByIndex, toCameraTypes, toggleCamera } from '../../src/client/handbooks/widgets/cameraTypes';
import { suggestionText } from '../../src/client/handbooks/inputs/useRefOptions';

describe('link suggestions of the widgets', () => {
  it('cut texts at 75 characters, marking the cut', () => {
    const long = 'Остановка '.repeat(10);
    const cut = suggestionText(long);
    expect(Array.from(cut)).toHaveLength(SUGGESTION_TEXT_MAX);
    expect(cut.endsWith('…')).toBe(true);
    expect(suggestionText('Площадь Восстания')).toBe('Площадь Восстания');
    expect(suggestionText('x'.repeat(75))).toBe('x'.repeat(75));
  });
});

describe('camera types of the dvr cameras input', () => {
  const types = toCameraTypes([
    { ip: 7, index: 3, title: 'Салон' },
    { ip: 2, index: 1, title: 'Кабина' },
    { ip: 5, index: 2, title: 'Дорога' },
  ]);

  it('are sorted by index', () => {
    expect(types.map((type) => type.title)).toEqual(['Кабина', 'Дорога', 'Салон']);
    expect(types[0]).toEqual({ id: 2, index: 1, title: 'Кабина' });
  });

  it('order the chosen ids by index, unknown ids last', () => {
    expect(orderByIndex([7, 99, 2], types)).toEqual([2, 7, 99]);
  });

  it('read the form value as distinct ids and toggle one', () => {
    expect(cameraIds(['2', 2, 5, 'x'])).toEqual([2, 5]);
    expect(cameraIds(null)).toEqual([]);
    expect(toggleCamera([2, 5], 5)).toEqual([2]);
    expect(toggleCamera([2], 7)).toEqual([2, 7]);
  });
});

/** A stand-in XMLHttpRequest: records what was sent and lets the test play the upload and the answer. */
class FakeXhr {
  static last: FakeXhr;
  method = '';
  url = '';
  headers: Record<string, string> = {};
  body: unknown;
  status = 0;
  responseText = '';
  responseHeaders: Record<string, string> = {};
  upload: { onprogress?: (event: { lengthComputable: boolean; loaded: number; total: number }) => void; onload?: () => void } = {};
  onload?: () => void;
  onerror?: () => void;
  onabort?: () => void;
  constructor() {
    FakeXhr.last = this;
  }
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name.toLowerCase()] = value;
  }
  getResponseHeader(name: string) {
    return this.responseHeaders[name] ?? null;
  }
  send(body: unknown) {
    this.body = body;
  }
  abort() {
    this.onabort?.();
  }
  answer(status: number, body: unknown) {
    this.status = status;
    this.responseText = JSON.stringify(body);
    this.onload?.();
  }
}

describe('the import upload', () => {
  const storage = new Map<string, string>([['token', 'tok-1']]);
  beforeEach(() => {
    vi.resetModules();
    vi.stubGlobal('window', { location: { pathname: '/handbooks/table/stops' } });
    vi.stubGlobal('localStorage', {
      getItem: (key: string) => storage.get(key) ?? null,
      setItem: (key: string, value: string) => storage.set(key, value),
      removeItem: (key: string) => storage.delete(key),
    });
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
  });
  afterEach(() => vi.unstubAllGlobals());

  it('carries the session headers of the http client', async () => {
    const { sessionHeaders, timezoneOffsetMinutes } = await import('../../src/web/providers/httpClient');
    expect(sessionHeaders()).toEqual({
      authorization: 'Bearer tok-1',
      'x-timezone-offset': String(timezoneOffsetMinutes()),
      'x-page-id': '/handbooks/table/stops',
    });
  });

  it('posts the raw file as text/csv with those headers, reports progress, resolves with the answer', async () => {
    const { uploadFile } = await import('../../src/client/handbooks/uploadFile');
    const progress: number[] = [];
    let uploaded = false;
    const file = new Blob(['stop_id;stop_name\n;Новая\n']);
    const pending = uploadFile('/api/table/import?type=stops', file, 'text/csv', {
      onProgress: (loaded, total) => progress.push(loaded / total),
      onUploaded: () => {
        uploaded = true;
      },
    });
    const xhr = FakeXhr.last;
    expect([xhr.method, xhr.url, xhr.body]).toEqual(['POST', '/api/table/import?type=stops', file]);
    expect(xhr.headers).toMatchObject({ 'content-type': 'text/csv', authorization: 'Bearer tok-1', 'x-page-id': '/handbooks/table/stops' });
    expect(xhr.headers['x-timezone-offset']).toMatch(/^-?\d+$/);
    xhr.upload.onprogress?.({ lengthComputable: true, loaded: 5, total: 10 });
    xhr.upload.onprogress?.({ lengthComputable: true, loaded: 10, total: 10 });
    xhr.upload.onload?.();
    xhr.responseHeaders['x-auth-token'] = 'tok-2';
    xhr.answer(200, { rows: 1, inserted: 1, updated: 0, deleted: 0 });
    await expect(pending).resolves.toEqual({ rows: 1, inserted: 1, updated: 0, deleted: 0 });
    expect(progress).toEqual([0.5, 1]);
    expect(uploaded).toBe(true);
    expect(storage.get('token')).toBe('tok-2');
  });

  it('rejects a refused file with the body of the answer, and an aborted one as an AbortError', async () => {
    const { uploadFile } = await import('../../src/client/handbooks/uploadFile');
    const { HttpError, isAbortError } = await import('../../src/web/providers/httpClient');
    const refused = uploadFile('/api/table/import?type=stops', new Blob(['x']), 'text/csv');
    const body = {
      messages: ['import_failed'],
      errors: [{ row: 2, column: 'stop_name', message: 'Это обязательное поле' }],
      moreErrors: 0,
    };
    FakeXhr.last.answer(400, body);
    const error = await refused.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpError);
    expect(error).toMatchObject({ status: 400, messages: ['import_failed'], body });

    const controller = new AbortController();
    const aborted = uploadFile('/api/table/import?type=stops', new Blob(['x']), 'text/csv', { signal: controller.signal });
    controller.abort();
    expect(isAbortError(await aborted.catch((e: unknown) => e))).toBe(true);
  });
});
