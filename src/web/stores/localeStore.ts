import type { Locale } from '../../shared/errors';
import { createStore, useStoreValue } from './createStore';

/** The interface language: Russian by default, English on request; the choice is remembered. */
export const LOCALES: readonly Locale[] = ['ru', 'en'];
const STORAGE_KEY = 'locale';

function storedLocale(): Locale {
  try {
    const value = localStorage.getItem(STORAGE_KEY);
    return value === 'en' ? 'en' : 'ru';
  } catch {
    return 'ru';
  }
}

const locale = createStore<Locale>(storedLocale());

export const getLocale = (): Locale => locale.get();

export function setLocale(next: Locale): void {
  try {
    localStorage.setItem(STORAGE_KEY, next);
  } catch {
    // private mode: the choice lasts for this page only
  }
  document.documentElement.lang = next;
  locale.set(next);
}

export function useLocale(): Locale {
  return useStoreValue(locale);
}
