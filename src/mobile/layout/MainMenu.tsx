import { useState } from 'react';
import { Box, Button, Divider, Drawer, IconButton, List, ListItemButton, ListItemIcon, ListItemText, Typography } from '@mui/material';
import CloseIcon from '@mui/icons-material/Close';
import ConfirmationNumberIcon from '@mui/icons-material/ConfirmationNumberOutlined';
import InfoIcon from '@mui/icons-material/InfoOutlined';
import LogoutIcon from '@mui/icons-material/Logout';
import MapIcon from '@mui/icons-material/MapOutlined';
import MenuBookIcon from '@mui/icons-material/MenuBookOutlined';
import VideocamIcon from '@mui/icons-material/VideocamOutlined';
import type { ReactNode } from 'react';
import { Link, useLocation } from 'react-router';
import { useT } from '../../web/i18n/translate';
import { fullNameOf } from '../../web/providers/authProvider';
import { logout } from '../../web/providers/session';
import { useCurrentUser, useSwitches } from '../../web/stores/sessionStore';
import { navigateTo } from '../../web/routing/navigationBridge';
import { ABOUT_PATH, permittedSections, type MobileSectionId } from '../access';
import { useMainMenu } from '../routing/useMainMenu';

const ICONS: Record<MobileSectionId | 'about', ReactNode> = {
  map: <MapIcon />,
  video: <VideocamIcon />,
  bc: <ConfirmationNumberIcon />,
  handbooks: <MenuBookIcon />,
  about: <InfoIcon />,
};

/**
 * The main menu of field-app spec 2.2, a drawer open while the address says navState=open: map, video, ticket
 * control and handbooks when permitted, then about; the system version and the logout button below.
 */
export function MainMenu() {
  const t = useT();
  const user = useCurrentUser();
  const switches = useSwitches();
  const { pathname } = useLocation();
  const { open, closeMenu } = useMainMenu();
  const [leaving, setLeaving] = useState(false);

  // the menu is the way out of any trouble, so it does not fail on a current user without a build
  const version = user?.build?.version ?? '—';
  const entries = [
    ...permittedSections(user, switches).map((section) => ({ id: section.id, path: section.path, label: t(section.label) })),
    { id: 'about' as const, path: ABOUT_PATH, label: t('mobile.menu.about') },
  ];

  const signOut = async () => {
    setLeaving(true);
    await logout(); // the token goes from localStorage: the console in this browser is logged out too
    navigateTo('/', { replace: true });
  };

  return (
    <Drawer
      open={open}
      onClose={closeMenu}
      anchor="left"
      slotProps={{ paper: { sx: { width: 'min(300px, 85vw)', display: 'flex', flexDirection: 'column' } } }}
    >
      <Box data-testid="mobile-menu" sx={{ display: 'flex', flexDirection: 'column', flex: 1, minHeight: 0 }}>
        <Box sx={{ bgcolor: 'primary.main', color: 'primary.contrastText', pl: 2, pr: 0.5, py: 1, display: 'flex', alignItems: 'center' }}>
          <Box sx={{ flex: 1, minWidth: 0 }}>
            <Typography variant="subtitle1" sx={{ fontWeight: 500, lineHeight: 1.3 }}>
              {t('app.name')}
            </Typography>
            {user && (
              <Typography variant="body2" sx={{ opacity: 0.85, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
                {fullNameOf(user)}
              </Typography>
            )}
          </Box>
          <IconButton color="inherit" aria-label={t('mobile.closeMenu')} onClick={closeMenu}>
            <CloseIcon />
          </IconButton>
        </Box>
        <List component="nav" sx={{ flex: 1, overflowY: 'auto' }}>
          {entries.map((entry) => {
            const current = pathname === entry.path || pathname.startsWith(`${entry.path}/`);
            return (
              <ListItemButton
                key={entry.id}
                component={Link}
                to={entry.path}
                replace
                onClick={
                  current
                    ? (event) => {
                        event.preventDefault();
                        closeMenu();
                      }
                    : undefined
                }
                selected={current}
                data-testid="mobile-menu-entry"
                data-path={entry.path}
              >
                <ListItemIcon sx={{ color: current ? 'primary.main' : undefined }}>{ICONS[entry.id]}</ListItemIcon>
                <ListItemText primary={entry.label} />
              </ListItemButton>
            );
          })}
        </List>
        <Divider />
        <Box sx={{ p: 2, display: 'flex', flexDirection: 'column', gap: 1.5 }}>
          <Typography variant="body2" color="text.secondary" data-testid="mobile-menu-version">
            {t('mobile.menu.version', { version })}
          </Typography>
          <Button
            variant="outlined"
            size="large"
            startIcon={<LogoutIcon />}
            onClick={() => void signOut()}
            disabled={leaving}
            data-testid="mobile-logout"
          >
            {t('mobile.menu.logout')}
          </Button>
        </Box>
      </Box>
    </Drawer>
  );
}
