import { ERROR_CATALOGUE, TRANSPORT_MESSAGES, type Locale } from '../../shared/errors';
import { ru, type AppMessages } from './ru';

/** A nested catalogue whose leaves are strings (the shape polyglot reads). */
export interface MessageTree {
  [key: string]: string | MessageTree;
}

function inLocale<K extends string>(table: Record<K, Record<Locale, string>>, locale: Locale): Record<K, string> {
  const out = {} as Record<K, string>;
  for (const key of Object.keys(table) as K[]) out[key] = table[key][locale];
  return out;
}

export type AppCatalogue = AppMessages & {
  /** The server's message codes (spec section 8), e.g. errors.login_not_found. */
  errors: Record<string, string>;
  /** Transport-level messages by HTTP status, e.g. transport.accessDenied. */
  transport: Record<keyof typeof TRANSPORT_MESSAGES, string>;
};

const withServerMessages = (messages: AppMessages, locale: Locale): AppCatalogue => ({
  ...messages,
  errors: inLocale(ERROR_CATALOGUE, locale),
  transport: inLocale(TRANSPORT_MESSAGES, locale),
});

/**
 * Russian is built in; English is loaded when it is chosen (or was, on a start), so the login pages do not carry
 * a second catalogue: it kept them over their JavaScript budget.
 */
const catalogues: Partial<Record<Locale, AppCatalogue>> = { ru: withServerMessages(ru, 'ru') };

export async function loadCatalogue(locale: Locale): Promise<void> {
  if (catalogues[locale]) return;
  const { en } = await import('./en');
  catalogues.en = withServerMessages(en, 'en');
}

/** The catalogue of `locale`, Russian until the English one has been loaded (loadCatalogue). */
export function catalogueFor(locale: Locale): AppCatalogue {
  return catalogues[locale] ?? catalogues.ru!;
}
