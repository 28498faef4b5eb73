import { lazy, Suspense, type ReactNode } from 'react';
import { AppBar, Box, Button, Toolbar, Typography } from '@mui/material';
import { Link, Navigate, Route, Routes } from 'react-router';
import { LoadingScreen } from '../web/components/LoadingScreen';
import { useT } from '../web/i18n/translate';
import LoginPage from './login/LoginPage';
import NoConnectionPage from './service/NoConnectionPage';
import ServerErrorPage from './service/ServerErrorPage';

const AboutPage = lazy(() => import('./about/AboutPage'));

/** A plain frame for the pages a visitor without a session may see besides the login screen. */
function PublicFrame({ children }: { children: ReactNode }) {
  const t = useT();
  return (
    <Box sx={{ minHeight: '100vh', bgcolor: 'background.default' }}>
      <AppBar position="static" color="primary">
        <Toolbar variant="dense">
          <Typography variant="subtitle1" sx={{ flex: 1, fontWeight: 500 }}>
            {t('app.name')}
          </Typography>
          <Button color="inherit" component={Link} to="/">
            {t('app.login')}
          </Button>
        </Toolbar>
      </AppBar>
      <Box sx={{ p: 2 }}>{children}</Box>
    </Box>
  );
}

/** Routes of a visitor without a session: the login screen at /, the about page, server-state pages. */
export function PublicShell() {
  return (
    <Routes>
      <Route path="/" element={<LoginPage />} />
      <Route
        path="/about"
        element={
          <PublicFrame>
            <Suspense fallback={<LoadingScreen />}>
              <AboutPage />
            </Suspense>
          </PublicFrame>
        }
      />
      <Route
        path="/server-error"
        element={
          <PublicFrame>
            <ServerErrorPage />
          </PublicFrame>
        }
      />
      <Route
        path="/no-connection"
        element={
          <PublicFrame>
            <NoConnectionPage />
          </PublicFrame>
        }
      />
      <Route path="*" element={<Navigate to="/" replace />} />
    </Routes>
  );
}
