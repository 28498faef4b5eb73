import { ERROR_CATALOGUE, TRANSPORT_MESSAGES, type Locale } from '../../shared/errors';
import { en } from './en';
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

const catalogues: Record<Locale, AppCatalogue> = {
  ru: { ...ru, errors: inLocale(ERROR_CATALOGUE, 'ru'), transport: inLocale(TRANSPORT_MESSAGES, 'ru') },
  en: { ...en, errors: inLocale(ERROR_CATALOGUE, 'en'), transport: inLocale(TRANSPORT_MESSAGES, 'en') },
};

export function catalogueFor(locale: Locale): AppCatalogue {
  return catalogues[locale];
}
