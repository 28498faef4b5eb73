import { TRANSPORT_MESSAGES, translateMessage, type Locale } from '../../shared/errors';
import { HttpError } from '../providers/httpClient';

/**
 * The text of the login form's message bar (spec sections 2 and 8): the first server message through the
 * error catalogue (an unknown one upper-cased); 'Сервер недоступен' when the server did not answer or
 * failed without a message.
 */
export function loginErrorText(error: unknown, locale: Locale): string {
  if (error instanceof HttpError && error.messages.length > 0) return translateMessage(error.messages[0], locale);
  if (error instanceof HttpError && error.status >= 400 && error.status < 500) return TRANSPORT_MESSAGES.error[locale];
  return TRANSPORT_MESSAGES.serverUnreachable[locale];
}
