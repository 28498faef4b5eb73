import { Suspense, lazy, type ReactNode } from 'react';
import { Box, CircularProgress } from '@mui/material';
import { Notification, Title } from 'react-admin';
import { RouteErrorBoundary } from '../errors/RouteErrorBoundary';
import { MainMenu } from './MainMenu';
import { MobileAppBar } from './MobileAppBar';
import { useCurrentUser, useSwitches } from '../../web/stores/sessionStore';
import { sectionAllowed, sectionById } from '../access';

const BcBackground = lazy(() => import('../bc/BcBackground'));

function PageLoading() {
  return (
    <Box sx={{ flex: 1, display: 'flex', alignItems: 'center', justifyContent: 'center' }}>
      <CircularProgress />
    </Box>
  );
}

/**
 * The phone layout of the field app (react-admin's `layout`): the compact app bar, the URL-driven main menu and
 * one full-screen page below; with ticket control, its outgoing queue and position reporting behind it. A rendering
 * error in the page shows the global error screen in its place,
 * cleared by any route change.
 */
export function MobileLayout({ children }: { children?: ReactNode }) {
  const user = useCurrentUser();
  const switches = useSwitches();
  const ticketControl = sectionAllowed(user, switches, sectionById('bc'));
  return (
    <Box sx={{ height: '100dvh', display: 'flex', flexDirection: 'column', bgcolor: 'background.default' }}>
      <MobileAppBar />
      <MainMenu />
      <Box component="main" id="main-content" sx={{ flex: 1, minHeight: 0, overflowY: 'auto', display: 'flex', flexDirection: 'column' }}>
        <RouteErrorBoundary
          frame={(screen) => (
            <>
              <Title title="mobile.service.clientError.title" />
              {screen}
            </>
          )}
        >
          <Suspense fallback={<PageLoading />}>{children}</Suspense>
        </RouteErrorBoundary>
      </Box>
      <Notification />
      {ticketControl && (
        <Suspense fallback={null}>
          <BcBackground />
        </Suspense>
      )}
    </Box>
  );
}
