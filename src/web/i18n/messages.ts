import { ERROR_CATALOGUE, TRANSPORT_MESSAGES, type Locale } from '../../shared/errors';
import type { AppMessages } from './ru';
import { ruShell } from './ruShell';

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

const withServerMessages = <M extends object>(messages: M, locale: Locale) => ({
  ...messages,
  errors: inLocale(ERROR_CATALOGUE, locale),
  transport: inLocale(TRANSPORT_MESSAGES, locale),
});

/**
 * Until the logged-in app loads, the shell's part of Russian (ruShell.ts) with the server's messages: the login
 * pages carry no more (the whole catalogue kept them over their JavaScript budget). The whole Russian catalogue
 * comes with the apps (i18nProvider adds it), English when it is chosen (or was, on a start).
 */
const shell = withServerMessages(ruShell, 'ru');
const catalogues: Partial<Record<Locale, AppCatalogue>> = {};

/** Makes `messages` the whole catalogue of `locale`. */
export function addCatalogue(locale: Locale, messages: AppMessages): void {
  catalogues[locale] ??= withServerMessages(messages, locale);
}

/** Loads the whole catalogue of `locale` (the language switch, the apps). */
export async function loadCatalogue(locale: Locale): Promise<void> {
  if (catalogues[locale]) return;
  addCatalogue(locale, locale === 'en' ? (await import('./en')).en : (await import('./ru')).ru);
}

/** What the login pages need before their first render: Russian's shell part is built in, English loads whole. */
export const loadLoginCatalogue = (locale: Locale): Promise<void> => (locale === 'ru' ? Promise.resolve() : loadCatalogue(locale));

/** The catalogue of `locale`; Russian until the English one has been loaded, its shell part until the app has. */
export function catalogueFor(locale: Locale): AppCatalogue | typeof shell {
  return catalogues[locale] ?? catalogues.ru ?? shell;
}
