import polyglotI18nProvider from 'ra-i18n-polyglot';
import englishMessages from 'ra-language-english';
import russianMessages from 'ra-language-russian';
import { mergeTranslations, type TranslationMessages } from 'react-admin';
import type { Locale } from '../../shared/errors';
import { getLocale } from '../stores/localeStore';
import { catalogueFor } from '../i18n/messages';

/**
 * react-admin's i18nProvider: ra-language-russian (over English, for the keys the Russian package lacks)
 * plus our catalogue; Russian by default, English second. The language in force is the locale store's.
 */
const messages: Record<Locale, TranslationMessages> = {
  ru: mergeTranslations(englishMessages, russianMessages, catalogueFor('ru')),
  en: mergeTranslations(englishMessages, catalogueFor('en')),
};

export const i18nProvider = polyglotI18nProvider(
  (locale) => messages[locale === 'en' ? 'en' : 'ru'],
  getLocale(),
  [
    { locale: 'ru', name: 'Русский' },
    { locale: 'en', name: 'English' },
  ],
  { allowMissing: true },
);
