import type { GenericQueryRequest } from '../../shared/handbooks/api';
import type { Row } from '../../shared/handbooks/validation';
import { HttpError, handleFailure, request } from '../../web/providers/httpClient';
import { getSession } from '../../web/stores/sessionStore';
import { keepAnswer, keptAnswer } from '../offline/offlineCache';

/** field-app.md section 7: the handbooks are read through one generic query. */
export const HANDBOOK_QUERY = '/api/v1/handbooks/query';

export interface HandbookPage {
  list: Row[];
  count: number;
  /** Read from the phone's copy (the server did not answer): when that copy was made. */
  savedAt?: number;
}

/** The server did not answer and the phone keeps no copy of this page. */
export class NoConnectionError extends Error {
  constructor() {
    super('no_connection');
    this.name = 'NoConnectionError';
  }
}

/**
 * One generic query. Each answer is kept on the phone, so a page seen once opens again without a connection
 * (field-app issue: "the last-seen handbook pages open offline"); without an answer the kept copy is given,
 * or NoConnectionError. The server's refusals go through the client's usual handling.
 */
export async function queryHandbook(body: GenericQueryRequest, signal?: AbortSignal): Promise<HandbookPage> {
  const scope = `handbooks:${getSession().user?.id ?? 0}`;
  const key = JSON.stringify(body);
  if (typeof navigator !== 'undefined' && navigator.onLine === false) return fromCopy(scope, key);
  try {
    const { body: page } = await request<HandbookPage>(HANDBOOK_QUERY, { method: 'POST', body, signal, handleErrors: false });
    void keepAnswer(scope, key, page);
    return page;
  } catch (error) {
    if (error instanceof HttpError && error.status === 0) return fromCopy(scope, key);
    // not "no answer": the client's handling of spec section 8 (messages, /access-denied…)
    if (error instanceof HttpError) handleFailure(error);
    throw error;
  }
}

async function fromCopy(scope: string, key: string): Promise<HandbookPage> {
  const copy = await keptAnswer<HandbookPage>(scope, key);
  if (!copy) throw new NoConnectionError();
  return { ...copy.body, savedAt: copy.at };
}
