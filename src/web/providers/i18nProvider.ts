import polyglotI18nProvider from 'ra-i18n-polyglot';
import englishMessages from 'ra-language-english';
import russianMessages from 'ra-language-russian';
import { mergeTranslations, type TranslationMessages } from 'react-admin';
import { ERROR_CATALOGUE, type ErrorCode, type Locale } from '../../shared/errors';
import { getLocale } from '../stores/localeStore';
import { addCatalogue, catalogueFor } from '../i18n/messages';
import { ru } from '../i18n/ru';

/**
 * react-admin's i18nProvider: ra-language-russian (over English, for the keys the Russian package lacks)
 * plus our catalogue; Russian by default, English second. The language in force is the locale store's.
 */
/**
 * The server's message codes as keys of their own: react-admin notifies an error by its message, which for
 * our HttpError is the first code ('validation_failed'), so a screen that keeps react-admin's notice still
 * shows the catalogue's text rather than the code.
 */
const serverCodes = (locale: Locale) =>
  Object.fromEntries(
    (Object.keys(ERROR_CATALOGUE) as ErrorCode[]).map((code) => [code, ERROR_CATALOGUE[code][locale]]),
  ) as TranslationMessages;

// The logged-in apps (this provider's only users) have the whole Russian catalogue; the login pages its shell part.
addCatalogue('ru', ru);

/** Merged when first asked for: the English catalogue is loaded only once chosen (i18n/messages.ts). */
const merged: Partial<Record<Locale, TranslationMessages>> = {};
function messagesFor(locale: Locale): TranslationMessages {
  merged[locale] ??=
    locale === 'en'
      ? mergeTranslations(serverCodes('en'), englishMessages, catalogueFor('en'))
      : mergeTranslations(serverCodes('ru'), englishMessages, russianMessages, catalogueFor('ru'));
  return merged[locale]!;
}

export const i18nProvider = polyglotI18nProvider(
  (locale) => messagesFor(locale === 'en' ? 'en' : 'ru'),
  getLocale(),
  [
    { locale: 'ru', name: 'Русский' },
    { locale: 'en', name: 'English' },
  ],
  { allowMissing: true },
);
