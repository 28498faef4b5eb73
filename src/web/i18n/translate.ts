import { useCallback } from 'react';
import type { Locale } from '../../shared/errors';
import { getLocale, useLocale } from '../stores/localeStore';
import { catalogueFor, type MessageTree } from './messages';

export type TranslateVars = Record<string, string | number>;
export type Translate = (key: string, vars?: TranslateVars) => string;

function lookup(tree: MessageTree, key: string): string | undefined {
  let node: string | MessageTree | undefined = tree;
  for (const part of key.split('.')) {
    if (typeof node !== 'object') return undefined;
    node = node[part];
  }
  return typeof node === 'string' ? node : undefined;
}

/**
 * Translates one key of our catalogue with polyglot's %{name} placeholders. Works without react-admin,
 * so the login page and the service pages load none of it; inside the admin useTranslate reads the same
 * catalogue. An unknown key is returned as it is.
 */
export function translate(locale: Locale, key: string, vars?: TranslateVars): string {
  const text = lookup(catalogueFor(locale) as unknown as MessageTree, key) ?? key;
  return vars ? text.replace(/%\{(\w+)\}/g, (match, name: string) => (name in vars ? String(vars[name]) : match)) : text;
}

/** Translates in the current language (outside React). */
export const t: Translate = (key, vars) => translate(getLocale(), key, vars);

/** Translation function that follows the language switch. */
export function useT(): Translate {
  const locale = useLocale();
  return useCallback((key, vars) => translate(locale, key, vars), [locale]);
}
