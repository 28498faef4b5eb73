import { createTheme } from '@mui/material/styles';
import { defaultTheme, type RaThemeOptions } from 'react-admin';
import { LAYOUT, PRIMARY_COLOR } from '../../shared/constants';

/**
 * react-admin's default theme with the palette and sizes of spec section 9: primary #003a72,
 * header 48 (the dense toolbar), sidebar 255.
 */
export const themeOptions: RaThemeOptions = {
  ...defaultTheme,
  palette: {
    ...defaultTheme.palette,
    primary: { main: PRIMARY_COLOR },
    secondary: { main: '#0b6fb8' },
    background: { default: '#f4f6f9' },
  },
  sidebar: { width: LAYOUT.sidebar, closedWidth: 55 },
  components: {
    ...defaultTheme.components,
    MuiToolbar: { styleOverrides: { dense: { minHeight: LAYOUT.header, height: LAYOUT.header } } },
    // A list's main column may shrink below its table (a flex item keeps its content's width otherwise), so a
    // wide list scrolls inside its own box while the toolbar's buttons stay on the screen.
    RaList: { styleOverrides: { root: { '& .RaList-main': { minWidth: 0 } } } },
    RaDataTable: { styleOverrides: { root: { '& .RaDataTable-tableWrapper': { overflowX: 'auto' } } } },
  },
};

/** The same theme, built, for the parts rendered outside react-admin (login, message stack, spinner). */
export const theme = createTheme(themeOptions);
