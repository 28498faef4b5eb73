import { liveQuery } from 'dexie';
import { useEffect, useState } from 'react';
import { BC_API, IDEMPOTENCY_HEADER } from '../../shared/bc/tasks';
import { translateMessage } from '../../shared/errors';
import { sessionHeaders } from '../../web/providers/httpClient';
import { getLocale } from '../../web/stores/localeStore';
import { fieldDb, type OutboxItem } from './fieldDb';

/**
 * The outgoing queue of the controller's report: photos, the report and the status wait in IndexedDB and go
 * out in order when the connection allows, each with its idempotency key, so a submission retried after a
 * lost answer is stored once. A refusal (4xx) keeps the item with the server's message and holds back the
 * later items of the same order; no answer, or a 5xx, leaves everything for the next attempt.
 */

/** Sent apart from the page's requests (leaving a page must not cancel a submission) and without the app's error pages. */
async function send(item: OutboxItem): Promise<Response> {
  const headers: Record<string, string> = { ...sessionHeaders(), [IDEMPOTENCY_HEADER]: item.key };
  switch (item.kind) {
    case 'photo': {
      const form = new FormData();
      form.append('file', item.photo, item.title);
      const query = new URLSearchParams({ controller_task_id: String(item.taskId), title: item.title });
      return fetch(`${BC_API.photo}?${query}`, { method: 'POST', headers, body: form });
    }
    case 'result':
      return fetch(BC_API.result(item.taskId), {
        method: 'PUT',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify(item.body),
      });
    case 'status':
      return fetch(`${BC_API.status}?ids=${item.taskId}`, {
        method: 'PUT',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ status: item.status }),
      });
  }
}

async function refusal(response: Response): Promise<string> {
  try {
    const body = (await response.json()) as { messages?: string[] };
    return (
      (body.messages ?? [])
        .filter((m) => !/^\d+$/.test(m))
        .map((m) => translateMessage(m, getLocale()))
        .join('; ') || `HTTP ${response.status}`
    );
  } catch {
    return `HTTP ${response.status}`;
  }
}

let running: Promise<void> | null = null;

/** Sends what waits, in order; one pass at a time. */
export function flushOutbox(): Promise<void> {
  running ??= (async () => {
    try {
      const held = new Set<number>();
      for (const item of await fieldDb.outbox.orderBy('seq').toArray()) {
        if (item.error || held.has(item.taskId)) {
          held.add(item.taskId);
          continue;
        }
        let response: Response;
        try {
          response = await send(item);
        } catch {
          return; // no connection: everything stays for the next attempt
        }
        if (response.ok) await fieldDb.outbox.delete(item.seq!);
        else if (response.status >= 500 || response.status === 401 || response.status === 408 || response.status === 429) return;
        else {
          await fieldDb.outbox.update(item.seq!, { error: await refusal(response) });
          held.add(item.taskId);
        }
      }
    } finally {
      running = null;
    }
  })();
  return running;
}

/** Puts a submission in the queue and tries to send at once. */
export async function enqueue(item: OutboxItem): Promise<void> {
  await fieldDb.outbox.add(item);
  void flushOutbox();
}

/** Clears the refusals and tries again (after the controller corrected what the server refused). */
export async function retryOutbox(): Promise<void> {
  await fieldDb.outbox.toCollection().modify((item) => {
    delete item.error;
  });
  await flushOutbox();
}

export const newKey = (): string =>
  typeof crypto.randomUUID === 'function' ? crypto.randomUUID() : `${Date.now()}-${Math.random().toString(36).slice(2)}`;

/** The queue as it changes (IndexedDB observed through Dexie's liveQuery). */
export function useOutbox(userId: number | undefined): OutboxItem[] {
  const [items, setItems] = useState<OutboxItem[]>([]);
  useEffect(() => {
    if (userId === undefined) return undefined;
    const subscription = liveQuery(() => fieldDb.outbox.where('userId').equals(userId).sortBy('seq')).subscribe({
      next: setItems,
      error: () => setItems([]),
    });
    return () => subscription.unsubscribe();
  }, [userId]);
  return items;
}

/** Sends when the connection returns, and every `intervalMs` while something waits. */
export function useOutboxSender(intervalMs = 15_000): void {
  useEffect(() => {
    const flush = () => void flushOutbox();
    flush();
    window.addEventListener('online', flush);
    const timer = window.setInterval(flush, intervalMs);
    return () => {
      window.removeEventListener('online', flush);
      window.clearInterval(timer);
    };
  }, [intervalMs]);
}
