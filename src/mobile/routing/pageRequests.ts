/**
 * The requests of the page in view (field-app spec 2.1: a route change cancels pending requests of the pages
 * left). The http client joins this signal to every request (configureHttpClient({ pageSignal })); leaving
 * the page aborts it, and the client treats the abort silently.
 */
let controller = new AbortController();

export function pageSignal(): AbortSignal {
  return controller.signal;
}

/** Aborts the requests of the page being left; the next page starts with a fresh signal. */
export function leavePage(): void {
  controller.abort();
  controller = new AbortController();
}
