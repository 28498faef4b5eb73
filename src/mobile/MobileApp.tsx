import { useState } from 'react';
import { CoreAdmin, CustomRoutes, localStorageStore } from 'react-admin';
import { authProvider } from '../web/providers/authProvider';
import { dataProvider } from '../web/providers/dataProvider';
import { i18nProvider } from '../web/providers/i18nProvider';
import { getLocale } from '../web/stores/localeStore';
import { LoadingScreen } from '../web/components/LoadingScreen';
import { GlobalErrorScreen } from './errors/GlobalErrorScreen';
import { MobileLayout } from './layout/MobileLayout';
import { MobileLanding, NotFoundRedirect } from './routing/MobileLanding';
import { mobileRoutes } from './routing/mobileRoutes';

/** An error in the layout itself (the pages have their own boundary): the global error screen. */
function AppError({ error, resetErrorBoundary }: { error: Error; resetErrorBoundary: (...args: unknown[]) => void }) {
  return <GlobalErrorScreen error={error} reset={resetErrorBoundary} />;
}

/** react-admin's preferences of the field app, apart from the console's. */
const store = localStorageStore('1', 'Field');

/**
 * The field app for a logged-in user: react-admin's core (lazy-loaded, so the login screen loads none of it) with
 * the console's providers, the phone layout and the route table of field-app spec 2.1. <CoreAdmin>, not <Admin>:
 * the phone's MUI theme is main.tsx's, and <Admin>'s default pages (its login form with react-hook-form, its
 * English messages) would come over 3G for nothing; errors show the global error screen (MobileShell, the layout).
 * No date pickers' localization (the console's DateLocalization): no field screen has a date picker.
 */
export default function MobileApp() {
  useState(() => store.setItem('locale', getLocale()));
  return (
    <CoreAdmin
      authProvider={authProvider}
      dataProvider={dataProvider}
      i18nProvider={i18nProvider}
      store={store}
      layout={MobileLayout}
      dashboard={MobileLanding}
      catchAll={NotFoundRedirect}
      loginPage={false}
      title="Транспортная платформа"
      requireAuth
      disableTelemetry
      loading={LoadingScreen}
      error={AppError}
    >
      <CustomRoutes>{mobileRoutes()}</CustomRoutes>
    </CoreAdmin>
  );
}
