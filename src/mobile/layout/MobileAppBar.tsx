import { AppBar, IconButton, Toolbar } from '@mui/material';
import MenuIcon from '@mui/icons-material/Menu';
import { TitlePortal } from 'react-admin';
import { LAYOUT } from '../../shared/constants';
import { useT } from '../../web/i18n/translate';
import { useMainMenu } from '../routing/useMainMenu';

/** The compact app bar: the menu button (opens the menu through navState=open) and the page title. */
export function MobileAppBar() {
  const t = useT();
  const { openMenu } = useMainMenu();
  return (
    <AppBar position="static" color="primary" elevation={2} data-testid="mobile-app-bar">
      <Toolbar variant="dense" disableGutters sx={{ minHeight: LAYOUT.header, height: LAYOUT.header, px: 0.5, gap: 0.5 }}>
        <IconButton color="inherit" aria-label={t('mobile.openMenu')} onClick={openMenu} data-testid="mobile-menu-button">
          <MenuIcon />
        </IconButton>
        <TitlePortal variant="subtitle1" component="div" sx={{ fontWeight: 500 }} />
      </Toolbar>
    </AppBar>
  );
}
