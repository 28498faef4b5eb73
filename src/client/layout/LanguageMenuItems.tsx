import { ListItemIcon, ListItemText, MenuItem } from '@mui/material';
import CheckIcon from '@mui/icons-material/Check';
import TranslateIcon from '@mui/icons-material/Translate';
import { useSetLocale, useUserMenu } from 'react-admin';
import type { Locale } from '../../shared/errors';
import { loadCatalogue } from '../../web/i18n/messages';
import { useT } from '../../web/i18n/translate';
import { LOCALES, setLocale, useLocale } from '../../web/stores/localeStore';

/** The language switch of the user menu: Русский / English; the choice is remembered. */
export function LanguageMenuItems() {
  const t = useT();
  const current = useLocale();
  const setAdminLocale = useSetLocale();
  const userMenu = useUserMenu();
  const choose = async (locale: Locale) => {
    userMenu?.onClose();
    await loadCatalogue(locale);
    setLocale(locale);
    setAdminLocale(locale);
  };
  return LOCALES.map((locale) => (
    <MenuItem key={locale} onClick={() => void choose(locale)} selected={locale === current} lang={locale} data-testid={`locale-${locale}`}>
      <ListItemIcon>{locale === current ? <CheckIcon fontSize="small" /> : <TranslateIcon fontSize="small" />}</ListItemIcon>
      <ListItemText>{t(`app.languages.${locale}`)}</ListItemText>
    </MenuItem>
  ));
}
