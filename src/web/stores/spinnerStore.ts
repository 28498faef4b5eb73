import { createStore, useStoreValue } from './createStore';

/** Pending loads (spec section 4): the full-screen spinner shows while the counter is above zero. */
const pending = createStore(0);

export function startLoading(): void {
  pending.set((n) => n + 1);
}

export function stopLoading(): void {
  pending.set((n) => Math.max(0, n - 1));
}

/** Hides the spinner whatever is pending (no response from the server, spec section 8). */
export function resetLoading(): void {
  pending.set(0);
}

export const pendingLoads = (): number => pending.get();

export function useIsLoading(): boolean {
  return useStoreValue(pending) > 0;
}
