import { MESSAGE_DISPLAY_MS } from '../../shared/constants';
import { createStore, useStoreValue } from './createStore';

/** The message stack of spec section 8: each message stays MESSAGE_DISPLAY_MS (4 s), then leaves. */
export type MessageSeverity = 'error' | 'warning' | 'info' | 'success';

export interface Message {
  id: number;
  text: string;
  severity: MessageSeverity;
}

const messages = createStore<Message[]>([]);
let nextId = 1;

export function showMessage(text: string, severity: MessageSeverity = 'error'): number {
  const id = nextId++;
  messages.set((list) => [...list, { id, text, severity }]);
  setTimeout(() => dismissMessage(id), MESSAGE_DISPLAY_MS);
  return id;
}

export function dismissMessage(id: number): void {
  messages.set((list) => (list.some((m) => m.id === id) ? list.filter((m) => m.id !== id) : list));
}

export const getMessages = (): Message[] => messages.get();

export function useMessages(): Message[] {
  return useStoreValue(messages);
}
