import { TRANSPORT_MESSAGES, translateMessage, type Locale } from '../../shared/errors';
import { HttpError } from '../providers/httpClient';

/**
 * The text of the login form's message bar, in the console and the field app (spec section 8, Login: "the
 * server's error body or 'Сервер недоступен'"): the first server message through the error catalogue (an
 * unknown one upper-cased); 'Сервер недоступен' when the server did not answer or answered any error status
 * without a message (an empty body from a proxy in front, for instance).
 */
export function loginErrorText(error: unknown, locale: Locale): string {
  if (error instanceof HttpError && error.messages.length > 0) return translateMessage(error.messages[0], locale);
  return TRANSPORT_MESSAGES.serverUnreachable[locale];
}
