import { lazy, Suspense } from 'react';
import { LoadingScreen } from '../web/components/LoadingScreen';
import { MessageStack } from '../web/components/MessageStack';
import { SpinnerOverlay } from '../web/components/SpinnerOverlay';
import { PublicShell } from './PublicShell';
import { NavigationBridge } from '../web/routing/NavigationBridge';
import { useSession } from '../web/stores/sessionStore';

const ConsoleApp = lazy(() => import('./ConsoleApp'));

/**
 * Decides what the browser shows: a loading screen while the stored session is checked at start, the
 * console (react-admin, loaded on demand) with a session, the login screen and public pages without.
 */
export function Shell() {
  const { initialising, token } = useSession();
  return (
    <>
      <NavigationBridge />
      {initialising ? (
        <LoadingScreen />
      ) : token ? (
        <Suspense fallback={<LoadingScreen />}>
          <ConsoleApp />
        </Suspense>
      ) : (
        <PublicShell />
      )}
      <MessageStack />
      <SpinnerOverlay />
    </>
  );
}
