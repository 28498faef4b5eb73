import { MESSAGE_DISPLAY_MS } from '../../shared/constants';
import { createStore, useStoreValue } from './createStore';

/**
 * The message stack of spec section 8: each message stays MESSAGE_DISPLAY_MS (4 s), then leaves. An error
 * belongs to the page it was raised on and leaves with it (a failed build must not follow the user to the next
 * page); a success stays, since it often reports what sent the user on (saved, back to the list).
 */
export type MessageSeverity = 'error' | 'warning' | 'info' | 'success';

export interface Message {
  id: number;
  text: string;
  severity: MessageSeverity;
  /** The router path of the page the message belongs to. */
  page?: string;
}

const messages = createStore<Message[]>([]);
let nextId = 1;
let currentPage: string | undefined;

/** Shows `text`; `page` is where it belongs when that is not the current page (an error that navigates away). */
export function showMessage(text: string, severity: MessageSeverity = 'error', page = currentPage): number {
  const id = nextId++;
  messages.set((list) => [...list, { id, text, severity, page }]);
  setTimeout(() => dismissMessage(id), MESSAGE_DISPLAY_MS);
  return id;
}

const leftBehind = (message: Message, page: string) => message.severity === 'error' && message.page !== undefined && message.page !== page;

/** The user is on `page` now: the errors of the pages left go. */
export function enterPage(page: string): void {
  currentPage = page;
  messages.set((list) => (list.some((m) => leftBehind(m, page)) ? list.filter((m) => !leftBehind(m, page)) : list));
}

export function dismissMessage(id: number): void {
  messages.set((list) => (list.some((m) => m.id === id) ? list.filter((m) => m.id !== id) : list));
}

export const getMessages = (): Message[] => messages.get();

export function useMessages(): Message[] {
  return useStoreValue(messages);
}
