import type { ReactNode } from 'react';
import 'dayjs/locale/ru';
import 'dayjs/locale/en';
import { LocalizationProvider } from '@mui/x-date-pickers/LocalizationProvider';
import { AdapterDayjs } from '@mui/x-date-pickers/AdapterDayjs';
import { ruRU, enUS } from '@mui/x-date-pickers/locales';
import { useLocale } from '../../web/stores/localeStore';

const PICKER_TEXTS = {
  ru: ruRU.components.MuiLocalizationProvider.defaultProps.localeText,
  en: enUS.components.MuiLocalizationProvider.defaultProps.localeText,
};

/**
 * MUI X date pickers in the interface language: DD.MM.YYYY (and HH:mm) in Russian, the calendar's texts
 * translated. Mounted once around the console, so every picker shares it (the field app has none).
 */
export function DateLocalization({ children }: { children: ReactNode }) {
  const locale = useLocale();
  return (
    <LocalizationProvider dateAdapter={AdapterDayjs} adapterLocale={locale} localeText={PICKER_TEXTS[locale]}>
      {children}
    </LocalizationProvider>
  );
}
