import { HEADERS } from '../../shared/constants';
import { HttpError, sessionHeaders } from '../../web/providers/httpClient';
import { replaceToken } from '../../web/stores/sessionStore';

export interface UploadCallbacks {
  /** Bytes sent so far of `total` (the upload's own progress; fetch has none). */
  onProgress?: (loaded: number, total: number) => void;
  /** The whole body is sent: the server is now applying it. */
  onUploaded?: () => void;
  signal?: AbortSignal;
}

function parse(text: string): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

const messagesOf = (body: unknown): string[] =>
  body && typeof body === 'object' && Array.isArray((body as { messages?: unknown }).messages)
    ? (body as { messages: unknown[] }).messages.filter((m): m is string => typeof m === 'string' && m !== '')
    : [];

/**
 * POSTs a file as the raw request body with XMLHttpRequest, reporting upload progress, with the session
 * headers of the http client (token, timezone offset, page id). Resolves with the JSON answer of a 2xx;
 * rejects with an HttpError (status 0 when the server did not answer) or an AbortError.
 */
export function uploadFile<T>(url: string, file: Blob, contentType: string, callbacks: UploadCallbacks = {}): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    const { signal } = callbacks;
    if (signal?.aborted) {
      reject(new DOMException('Aborted', 'AbortError'));
      return;
    }
    const abort = () => xhr.abort();
    signal?.addEventListener('abort', abort, { once: true });
    const done = () => signal?.removeEventListener('abort', abort);
    xhr.open('POST', url);
    xhr.setRequestHeader('accept', 'application/json');
    xhr.setRequestHeader('content-type', contentType);
    for (const [name, value] of Object.entries(sessionHeaders())) xhr.setRequestHeader(name, value);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) callbacks.onProgress?.(event.loaded, event.total);
    };
    xhr.upload.onload = () => callbacks.onUploaded?.();
    xhr.onload = () => {
      done();
      const refreshed = xhr.getResponseHeader(HEADERS.refreshedToken);
      if (refreshed) replaceToken(refreshed);
      const body = parse(xhr.responseText);
      if (xhr.status >= 200 && xhr.status < 300) resolve(body as T);
      else reject(new HttpError(xhr.status, messagesOf(body), body));
    };
    xhr.onerror = () => {
      done();
      reject(new HttpError(0, [], null));
    };
    xhr.onabort = () => {
      done();
      reject(new DOMException('Aborted', 'AbortError'));
    };
    xhr.send(file);
  });
}
