import '@fontsource/roboto/300.css';
import '@fontsource/roboto/400.css';
import '@fontsource/roboto/500.css';
import '@fontsource/roboto/700.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { CssBaseline, ThemeProvider } from '@mui/material';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { theme } from '../web/layout/theme';
import { initialiseSession } from '../web/providers/session';
import { Shell } from './Shell';
import { loadLoginCatalogue } from '../web/i18n/messages';
import { getLocale } from '../web/stores/localeStore';

document.documentElement.lang = getLocale();
void initialiseSession();

/** A data router, so that react-admin's unsaved-changes guard (useBlocker) works in later forms. */
const router = createBrowserRouter([{ path: '*', element: <Shell /> }]);

// The English catalogue, when chosen, is loaded before the first render (Russian's login part is built in).
void loadLoginCatalogue(getLocale()).then(() =>
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <ThemeProvider theme={theme}>
        <CssBaseline />
        <RouterProvider router={router} />
      </ThemeProvider>
    </StrictMode>,
  ),
);
