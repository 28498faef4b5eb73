import { createTheme } from '@mui/material/styles';
import type { RaThemeOptions } from 'react-admin';
import { themeOptions } from '../../client/layout/theme';

/** Smallest comfortable touch target (px). */
export const TOUCH_TARGET = 48;

/**
 * The console's theme (primary #003a72, dense 48 px header) with touch-sized controls for the phone: buttons,
 * icon buttons and list rows at least 48 px, inputs at 16 px (phones zoom into smaller ones).
 */
export const mobileThemeOptions: RaThemeOptions = {
  ...themeOptions,
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
