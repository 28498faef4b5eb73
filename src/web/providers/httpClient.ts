import { HEADERS } from '../../shared/constants';
import { TRANSPORT_MESSAGES, isErrorCode, translateMessage } from '../../shared/errors';
import { getLocale } from '../stores/localeStore';
import { showMessage } from '../stores/messageStore';
import { clearSession, readToken, replaceToken } from '../stores/sessionStore';
import { resetLoading, startLoading, stopLoading } from '../stores/spinnerStore';
import { navigateTo } from '../routing/navigationBridge';

/**
 * The one HTTP client every provider and screen uses (spec sections 7 and 8). Each request carries the
 * session token, the timezone offset and the page identifier; a token refreshed by the server is kept;
 * errors are handled by transport status unless the caller opts out with `handleErrors: false`;
 * cancelled requests (AbortController) are silent.
 */
export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  query?: Record<string, string | number | boolean | null | undefined>;
  /** Sent as JSON, unless it is FormData, a Blob, URLSearchParams or a string. */
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** The global handling of spec section 8 (messages, navigation). Default true. */
  handleErrors?: boolean;
  /** Count this request in the full-screen spinner. Default false. */
  spinner?: boolean;
  /** How to read a successful body; by default JSON when the server says so, otherwise text. */
  responseType?: 'json' | 'text' | 'blob';
}

export interface HttpResponse<T> {
  status: number;
  headers: Headers;
  body: T;
}

/**
 * A failed request: `status` 0 when the server did not answer. `messages` are the server's codes
 * (`{ messages: [...] }`) and `body` the whole response body, so that a caller of a 400 reads the
 * response it was given (field errors of a form, for instance).
 */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly messages: string[],
    readonly body: unknown,
    options?: { cause?: unknown },
  ) {
    super(messages[0] ?? (status ? `HTTP ${status}` : 'No response'), options);
    this.name = 'HttpError';
  }
}

/**
 * How the client behaves in the front end that uses it. The console keeps the defaults; the field app
 * (src/mobile) sends a request without an answer to /no-connection (spec section 8: "on native devices")
 * and cancels the requests of a page when the user leaves it (`pageSignal`, joined to a caller's signal).
 */
export interface HttpClientMode {
  /** Where a request without an answer leads. Default 'server-error' (with the 'Ошибка' message). */
  noResponse: 'server-error' | 'no-connection';
  /** The signal of the page in view; requests are aborted with it. Default none. */
  pageSignal?: () => AbortSignal | undefined;
}

const mode: HttpClientMode = { noResponse: 'server-error' };

export function configureHttpClient(next: Partial<HttpClientMode>): void {
  Object.assign(mode, next);
}

/** The caller's signal, the page's, or both joined. */
function effectiveSignal(own: AbortSignal | undefined): AbortSignal | undefined {
  const page = mode.pageSignal?.();
  if (!page) return own;
  if (!own) return page;
  return typeof AbortSignal.any === 'function' ? AbortSignal.any([own, page]) : own;
}

export function isAbortError(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'AbortError';
}

/**
 * X-Timezone-Offset: the client's offset from UTC in minutes, positive east of Greenwich (Moscow sends
 * 180), i.e. `-Date.prototype.getTimezoneOffset()`.
 */
export function timezoneOffsetMinutes(date: Date = new Date()): number {
  return -date.getTimezoneOffset();
}

function buildUrl(url: string, query: RequestOptions['query']): string {
  const base = /^https?:\/\//.test(url) || url.startsWith('/') ? url : `/${url}`;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== null) params.append(key, String(value));
  }
  const search = params.toString();
  return search ? `${base}${base.includes('?') ? '&' : '?'}${search}` : base;
}

/**
 * The headers every request carries (spec section 7): the session token, the timezone offset and the page
 * identifier. Exported for the few requests that cannot go through fetch (an upload with progress uses
 * XMLHttpRequest).
 */
export function sessionHeaders(): Record<string, string> {
  const headers: Record<string, string> = {};
  const token = readToken();
  if (token) headers[HEADERS.token] = `Bearer ${token}`;
  headers[HEADERS.timezoneOffset] = String(timezoneOffsetMinutes());
  headers[HEADERS.pageId] = window.location.pathname;
  return headers;
}

function buildInit(options: RequestOptions, signal: AbortSignal | undefined): RequestInit {
  const headers = new Headers(options.headers);
  headers.set('accept', 'application/json');
  for (const [name, value] of Object.entries(sessionHeaders())) headers.set(name, value);
  let body: BodyInit | undefined;
  const raw = options.body;
  if (raw instanceof FormData || raw instanceof Blob || raw instanceof URLSearchParams || typeof raw === 'string') {
    body = raw;
  } else if (raw !== undefined) {
    headers.set('content-type', 'application/json');
    body = JSON.stringify(raw);
  }
  return { method: options.method ?? (body === undefined ? 'GET' : 'POST'), headers, body, signal };
}

async function readBody(response: Response, type: RequestOptions['responseType']): Promise<unknown> {
  if (response.status === 204) return null;
  if (type === 'blob') return response.blob();
  const text = await response.text();
  const isJson = type === 'json' || (response.headers.get('content-type') ?? '').includes('json');
  if (!isJson || text === '') return text === '' ? null : text;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function messagesOf(body: unknown): string[] {
  if (body && typeof body === 'object' && Array.isArray((body as { messages?: unknown }).messages)) {
    return (body as { messages: unknown[] }).messages.filter((m): m is string => typeof m === 'string' && m !== '');
  }
  return [];
}

const transport = (key: keyof typeof TRANSPORT_MESSAGES) => TRANSPORT_MESSAGES[key][getLocale()];

/**
 * The server's messages, translated. The words after a catalogue code are its details for the API (the field at
 * fault, a count), so a person reads the codes only; a message without any code is shown upper-cased (section 8).
 */
function showServerMessages(messages: string[], fallback: string): void {
  const codes = messages.filter(isErrorCode);
  const shown = codes.length ? codes : messages;
  if (shown.length === 0) showMessage(fallback);
  for (const message of shown) showMessage(translateMessage(message, getLocale()));
}

/**
 * Spec section 8, by transport status. Exported for a caller that sent with `handleErrors: false` to treat
 * one case itself (the field app's handbooks read their offline copy when there is no answer) and leave
 * the others here.
 */
export function handleFailure(error: HttpError): void {
  switch (error.status) {
    case 0:
      resetLoading();
      if (mode.noResponse === 'no-connection') {
        navigateTo('/no-connection');
        return;
      }
      showMessage(transport('error'), 'error', '/server-error');
      navigateTo('/server-error');
      return;
    case 400:
      showServerMessages(error.messages, translateMessage('bad_request', getLocale()));
      return;
    case 401:
      clearSession();
      navigateTo('/', { replace: true });
      return;
    case 403:
      showMessage(transport('accessDenied'), 'error', '/access-denied');
      navigateTo('/access-denied');
      return;
    case 404:
      showServerMessages(error.messages, transport('notFound'));
      return;
    case 500:
      showServerMessages(error.messages, translateMessage('internal_error', getLocale()));
      return;
    case 502:
      showMessage(transport('badGateway'));
      return;
    case 503:
      showMessage(transport('unavailable'));
      return;
    default:
      showServerMessages(error.messages, transport('error'));
  }
}

/** Sends a request; resolves with a 2xx response, rejects with an HttpError (or an AbortError). */
export async function request<T = unknown>(url: string, options: RequestOptions = {}): Promise<HttpResponse<T>> {
  const handle = options.handleErrors !== false;
  const signal = effectiveSignal(options.signal);
  if (options.spinner) startLoading();
  try {
    let response: Response;
    try {
      response = await fetch(buildUrl(url, options.query), buildInit(options, signal));
    } catch (cause) {
      if (isAbortError(cause) || signal?.aborted) throw cause;
      const error = new HttpError(0, [], null, { cause });
      if (handle) handleFailure(error);
      throw error;
    }
    const refreshed = response.headers.get(HEADERS.refreshedToken);
    if (refreshed) replaceToken(refreshed);
    const body = await readBody(response, options.responseType);
    if (response.ok) return { status: response.status, headers: response.headers, body: body as T };
    const error = new HttpError(response.status, messagesOf(body), body);
    if (handle) handleFailure(error);
    throw error;
  } finally {
    if (options.spinner) stopLoading();
  }
}

/**
 * react-admin's onError for a query or a save that went through this client: the client has already shown
 * the error (spec section 8), so react-admin must not notify a second time.
 */
export const errorShownByClient = (): void => undefined;

/** The body of a GET. */
export async function getJson<T>(url: string, options: Omit<RequestOptions, 'method' | 'body'> = {}): Promise<T> {
  return (await request<T>(url, { ...options, method: 'GET' })).body;
}

/** The body of a POST of `body` as JSON. */
export async function postJson<T>(url: string, body?: unknown, options: Omit<RequestOptions, 'method' | 'body'> = {}): Promise<T> {
  return (await request<T>(url, { ...options, method: 'POST', body: body ?? {} })).body;
}
