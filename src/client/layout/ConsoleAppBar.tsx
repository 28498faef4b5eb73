import { Box, Typography } from '@mui/material';
import { AppBar, LoadingIndicator, TitlePortal } from 'react-admin';
import { FullscreenToggle } from '../components/FullscreenToggle';
import { useT } from '../../web/i18n/translate';
import { NotificationBell } from '../notifications/NotificationBell';
import { ConsoleUserMenu } from './ConsoleUserMenu';

/** App bar (48 high): sidebar toggle (react-admin's), product name, page title, notifications, fullscreen, user menu. */
export function ConsoleAppBar() {
  const t = useT();
  return (
    <AppBar
      color="primary"
      toolbar={
        <>
          <NotificationBell />
          <FullscreenToggle />
          <LoadingIndicator />
        </>
      }
      userMenu={<ConsoleUserMenu />}
    >
      <Typography variant="subtitle1" component="span" sx={{ fontWeight: 500, whiteSpace: 'nowrap', display: { xs: 'none', sm: 'block' } }}>
        {t('app.name')}
      </Typography>
      <Box sx={{ mx: 1.5, height: 20, borderLeft: '1px solid rgba(255,255,255,0.4)', display: { xs: 'none', sm: 'block' } }} />
      <TitlePortal variant="subtitle1" />
    </AppBar>
  );
}
