import { useState, type ReactNode } from 'react';
import { Route } from 'react-router';
import { Admin, CustomRoutes, Title, localStorageStore } from 'react-admin';
import AboutPage from './about/AboutPage';
import './reportAreas';
import { DateLocalization } from './components/DateLocalization';
import { ConsoleLayout } from './layout/ConsoleLayout';
import { themeOptions } from '../web/layout/theme';
import { authProvider } from '../web/providers/authProvider';
import { dataProvider } from '../web/providers/dataProvider';
import { i18nProvider } from '../web/providers/i18nProvider';
import { Landing, NotFoundRedirect } from './routing/Landing';
import { screenRoutes, unregisteredRoutes } from './routing/screenRoutes';
import AccessDeniedPage from './service/AccessDeniedPage';
import NoConnectionPage from './service/NoConnectionPage';
import NotFoundPage from './service/NotFoundPage';
import ServerErrorPage from './service/ServerErrorPage';
import { getLocale } from '../web/stores/localeStore';

/** react-admin's preferences (sidebar state and the like), under their own prefix. */
const store = localStorageStore('1', 'Console');

if (import.meta.env.DEV && unregisteredRoutes().length > 0) {
  console.warn('Built routes without a screen in src/client/screens.tsx:', unregisteredRoutes());
}

const titled = (title: string, page: ReactNode) => (
  <>
    <Title title={title} />
    {page}
  </>
);

function AccessDeniedScreen() {
  return titled('service.accessDenied.title', <AccessDeniedPage />);
}

/**
 * The console for a logged-in user: react-admin's <Admin> (lazy-loaded, so the login page loads none of
 * it) with our providers, layout and theme. Screens come from the registry in screens.tsx.
 */
export default function ConsoleApp() {
  // the language chosen before react-admin was loaded is the one it starts with
  useState(() => store.setItem('locale', getLocale()));
  return (
    <DateLocalization>
      <Admin
        authProvider={authProvider}
        dataProvider={dataProvider}
        i18nProvider={i18nProvider}
        store={store}
        theme={themeOptions}
        layout={ConsoleLayout}
        dashboard={Landing}
        catchAll={NotFoundRedirect}
        accessDenied={AccessDeniedScreen}
        loginPage={false}
        title="Транспортная платформа"
        requireAuth
        disableTelemetry
      >
        <CustomRoutes>
          <Route path="/about" element={titled('menu.about', <AboutPage />)} />
          <Route path="/not-found" element={titled('service.notFound.title', <NotFoundPage />)} />
          <Route path="/server-error" element={titled('service.serverError.title', <ServerErrorPage />)} />
          <Route path="/no-connection" element={titled('service.noConnection.title', <NoConnectionPage />)} />
          {screenRoutes()}
        </CustomRoutes>
      </Admin>
    </DateLocalization>
  );
}
