import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { CssBaseline, ThemeProvider } from '@mui/material';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { configureHttpClient } from '../web/providers/httpClient';
import { initialiseSession } from '../web/providers/session';
import { setBasePath } from '../web/routing/navigationBridge';
import { loadLoginCatalogue } from '../web/i18n/messages';
import { getLocale } from '../web/stores/localeStore';
import { MOBILE_BASE } from './constants';
import { mobileTheme } from './layout/mobileTheme';
import { watchUncaughtErrors } from './errors/clientErrorFlag';
import { MobileShell } from './MobileShell';
import { pageSignal } from './routing/pageRequests';
import { keepLastUser, keptUser } from './offline/offlineUser';
import { registerServiceWorker } from './offline/serviceWorker';

/**
 * The field application's entry (m/index.html), served under /m. It shares the console's session (the token in
 * localStorage under 'token'), http client, stores and providers; the client runs in the field app's mode:
 * no answer leads to /no-connection, and leaving a page cancels its requests. Installed as an app (its service
 * worker), it starts offline with the last user it loaded.
 */
configureHttpClient({ noResponse: 'no-connection', pageSignal });
setBasePath(MOBILE_BASE);
watchUncaughtErrors(window);
document.documentElement.lang = getLocale();
keepLastUser();
// Offline (the phone says so) the app starts with the last user it loaded; a server that does not answer
// while the phone is online leads to /no-connection as before (field-app spec 8).
void initialiseSession({ whenUnreachable: () => (navigator.onLine ? null : keptUser()) });
registerServiceWorker();

const router = createBrowserRouter([{ path: '*', element: <MobileShell /> }], { basename: MOBILE_BASE });

// React's recoverable errors (it rendered again and succeeded) are logged, not reported to the window as
// uncaught: they must not raise the client-error flag.
const onRecoverableError = (error: unknown) => console.warn('React recovered from an error', error);

// The English catalogue, when chosen, is loaded before the first render (Russian's login part is built in).
void loadLoginCatalogue(getLocale()).then(() =>
  createRoot(document.getElementById('root')!, { onRecoverableError }).render(
    <StrictMode>
      <ThemeProvider theme={mobileTheme}>
        <CssBaseline />
        <RouterProvider router={router} />
      </ThemeProvider>
    </StrictMode>,
  ),
);
