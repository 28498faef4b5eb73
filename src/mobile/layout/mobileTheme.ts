import { createTheme } from '@mui/material/styles';
import type { RaThemeOptions } from 'react-admin';
import { themeOptions } from '../../web/layout/theme';

/** Smallest comfortable touch target (px). */
export const TOUCH_TARGET = 48;

/**
 * The phone's own font (system-ui: Roboto on Android, San Francisco on an iPhone), not the console's web fonts:
 * their four files (67 KB) would share a first visit's 3G link with the app's code. Not named Roboto: the
 * console's @font-face rules of that name come in the shared stylesheet, and would fetch them.
 */
const PHONE_FONTS = 'system-ui, -apple-system, "Segoe UI", sans-serif';

/**
 * The console's theme (primary #003a72, dense 48 px header) with touch-sized controls for the phone: buttons,
 * icon buttons and list rows at least 48 px, inputs at 16 px (phones zoom into smaller ones), in the phone's fonts.
 */
const mobileThemeOptions: RaThemeOptions = {
  ...themeOptions,
  typography: { fontFamily: PHONE_FONTS },
  components: {
    ...themeOptions.components,
    MuiButton: { styleOverrides: { root: { minHeight: 44 }, sizeLarge: { minHeight: TOUCH_TARGET } } },
    MuiIconButton: { styleOverrides: { root: { minWidth: TOUCH_TARGET, minHeight: TOUCH_TARGET } } },
    MuiListItemButton: { styleOverrides: { root: { minHeight: TOUCH_TARGET } } },
    MuiInputBase: { styleOverrides: { input: { fontSize: 16 } } },
  },
};

/** The same theme, built, for the parts outside react-admin (login, loading, messages). */
export const mobileTheme = createTheme(mobileThemeOptions);
