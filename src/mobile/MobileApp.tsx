import { useState } from 'react';
import { Admin, CustomRoutes, localStorageStore } from 'react-admin';
import { DateLocalization } from '../client/components/DateLocalization';
import { authProvider } from '../client/providers/authProvider';
import { dataProvider } from '../client/providers/dataProvider';
import { i18nProvider } from '../client/providers/i18nProvider';
import { getLocale } from '../client/stores/localeStore';
import { MobileLayout } from './layout/MobileLayout';
import { mobileThemeOptions } from './layout/mobileTheme';
import { MobileLanding, NotFoundRedirect } from './routing/MobileLanding';
import { mobileRoutes } from './routing/mobileRoutes';

/** react-admin's preferences of the field app, apart from the console's. */
const store = localStorageStore('1', 'Field');

/**
 * The field app for a logged-in user: a second react-admin <Admin> (lazy-loaded, so the login screen loads
 * none of it) with the console's providers, the phone layout and the route table of field-app spec 2.1.
 */
export default function MobileApp() {
  useState(() => store.setItem('locale', getLocale()));
  return (
    <DateLocalization>
      <Admin
        authProvider={authProvider}
        dataProvider={dataProvider}
        i18nProvider={i18nProvider}
        store={store}
        theme={mobileThemeOptions}
        layout={MobileLayout}
        dashboard={MobileLanding}
        catchAll={NotFoundRedirect}
        loginPage={false}
        title="Транспортная платформа"
        requireAuth
        disableTelemetry
      >
        <CustomRoutes>{mobileRoutes()}</CustomRoutes>
      </Admin>
    </DateLocalization>
  );
}
