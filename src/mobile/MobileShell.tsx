import { lazy, Suspense } from 'react';
import { Box } from '@mui/material';
import { LoadingScreen } from '../web/components/LoadingScreen';
import { MessageStack } from '../web/components/MessageStack';
import { SpinnerOverlay } from '../web/components/SpinnerOverlay';
import { NavigationBridge } from '../web/routing/NavigationBridge';
import { useSession } from '../web/stores/sessionStore';
import { RouteErrorBoundary } from './errors/RouteErrorBoundary';
import MobileLoginPage from './login/MobileLoginPage';
import { ClientErrorRedirect } from './routing/ClientErrorRedirect';
import { RouteChangeEffects } from './routing/RouteChangeEffects';

const MobileApp = lazy(() => import('./MobileApp'));

/**
 * What the phone shows (field-app spec 2.1 and 4): a loading screen while the stored session is checked at
 * start, the field app (react-admin, loaded on demand) with a session, and the login screen in place of every
 * route without one. A rendering error outside the pages (their own boundary is in the layout) shows the
 * global error screen; the client-error flag (an uncaught error elsewhere) leads a logged-in user to /client-error.
 */
export function MobileShell() {
  const { initialising, token } = useSession();
  return (
    <>
      <NavigationBridge />
      <RouteChangeEffects />
      {token && <ClientErrorRedirect />}
      <RouteErrorBoundary frame={(screen) => <Box sx={{ minHeight: '100dvh', display: 'flex' }}>{screen}</Box>}>
        {initialising ? (
          <LoadingScreen />
        ) : token ? (
          <Suspense fallback={<LoadingScreen />}>
            <MobileApp />
          </Suspense>
        ) : (
          <MobileLoginPage />
        )}
      </RouteErrorBoundary>
      <MessageStack />
      <SpinnerOverlay />
    </>
  );
}
