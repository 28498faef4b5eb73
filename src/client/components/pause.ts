/**
 * Resolves after `ms` unless `signal` aborts first. A query that follows typing waits in its load for a pause in
 * the typing: the next key's query makes react-query abort this one, so only a settled key reaches the server.
 */
export function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason as Error);
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason as Error);
      },
      { once: true },
    );
  });
}
