import { beforeEach, describe, expect, it } from 'vitest';
import { HttpError } from '../../src/web/providers/httpClient';
import { clearClientError, clientErrorRaised, watchUncaughtErrors } from '../../src/mobile/errors/clientErrorFlag';

/** The field app's client-error flag (field-app spec 2.1): what sets it and what does not. */
const windowLike = new EventTarget() as EventTarget & Pick<Window, 'addEventListener'>;
watchUncaughtErrors(windowLike);

const uncaught = (error: unknown) => windowLike.dispatchEvent(Object.assign(new Event('error'), { error }));
const unhandled = (reason: unknown) => windowLike.dispatchEvent(Object.assign(new Event('unhandledrejection'), { reason }));

describe('client-error flag', () => {
  beforeEach(() => clearClientError());

  it('is set by an uncaught exception and by a rejected promise nobody caught', () => {
    uncaught(new TypeError('x is undefined'));
    expect(clientErrorRaised()).toBe(true);
    clearClientError();
    unhandled(new Error('nobody waited'));
    expect(clientErrorRaised()).toBe(true);
  });

  it('is not set by requests the http client handles, cancelled requests, or error events without an error', () => {
    unhandled(new HttpError(500, ['internal_error'], null));
    unhandled(new DOMException('The operation was aborted.', 'AbortError'));
    uncaught(null);
    expect(clientErrorRaised()).toBe(false);
  });
});
