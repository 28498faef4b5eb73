import { HttpError, isAbortError } from '../../web/providers/httpClient';
import { createStore, useStoreValue } from '../../web/stores/createStore';

/**
 * The client-error flag of field-app spec 2.1: set when the application's code fails outside rendering (an
 * exception in an event handler or a timer, a rejected promise nobody caught); while it is set the app goes
 * to /client-error (ClientErrorRedirect). Rendering errors have their own state (RouteErrorBoundary), and
 * failed or cancelled requests are the http client's to handle, so neither sets the flag.
 */
const flag = createStore(false);

export const raiseClientError = (): void => flag.set(true);
export const clearClientError = (): void => flag.set(false);
export const clientErrorRaised = (): boolean => flag.get();
export const useClientErrorFlag = (): boolean => useStoreValue(flag);

/** Whether an uncaught failure is the application's own (not a request the http client already handled). */
export function isClientError(error: unknown): boolean {
  return error !== null && error !== undefined && !isAbortError(error) && !(error instanceof HttpError);
}

/**
 * Sets the flag on the window's uncaught errors. An 'error' event without an error object (a resize
 * observer's loop notice, a script of another origin) says nothing about our code and is ignored.
 */
export function watchUncaughtErrors(target: Pick<Window, 'addEventListener'>): void {
  target.addEventListener('error', (event: ErrorEvent) => {
    if (isClientError(event.error)) raiseClientError();
  });
  target.addEventListener('unhandledrejection', (event: PromiseRejectionEvent) => {
    if (isClientError(event.reason)) raiseClientError();
  });
}
