import { Box, Card, CardContent, List, ListItem, ListItemIcon, ListItemText, Typography } from '@mui/material';
import ConfirmationNumberIcon from '@mui/icons-material/ConfirmationNumberOutlined';
import MapIcon from '@mui/icons-material/MapOutlined';
import MenuBookIcon from '@mui/icons-material/MenuBookOutlined';
import VideocamIcon from '@mui/icons-material/VideocamOutlined';
import { useT } from '../../web/i18n/translate';
import { useCurrentUser } from '../../web/stores/sessionStore';

const SUBSYSTEMS = [
  { id: 'map', icon: <MapIcon /> },
  { id: 'video', icon: <VideocamIcon /> },
  { id: 'bc', icon: <ConfirmationNumberIcon /> },
  { id: 'handbooks', icon: <MenuBookIcon /> },
] as const;

/** YYYY-MM-DD as DD.MM.YYYY. */
const displayDate = (iso: string) => iso.replace(/^(\d{4})-(\d{2})-(\d{2}).*$/, '$3.$2.$1');

/**
 * /about, always available (field-app spec 1 and 6): what the platform is for, its subsystems and the version
 * of the system (the current user's build).
 */
export default function MobileAboutPage() {
  const t = useT();
  const user = useCurrentUser();
  return (
    <Box sx={{ p: 2, display: 'flex', flexDirection: 'column', gap: 2 }} data-testid="mobile-about">
      <Box>
        <Typography variant="h6" component="h1">
          {t('app.name')}
        </Typography>
        <Typography sx={{ mt: 1 }} data-testid="mobile-about-description">
          {t('mobile.about.description')}
        </Typography>
      </Box>
      <Card variant="outlined">
        <CardContent sx={{ pb: 1 }}>
          <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 500 }}>
            {t('mobile.about.subsystems')}
          </Typography>
          <List dense disablePadding data-testid="mobile-about-subsystems">
            {SUBSYSTEMS.map((subsystem) => (
              <ListItem key={subsystem.id} disableGutters>
                <ListItemIcon sx={{ minWidth: 40, color: 'primary.main' }}>{subsystem.icon}</ListItemIcon>
                <ListItemText primary={t(`mobile.about.${subsystem.id}`)} />
              </ListItem>
            ))}
          </List>
        </CardContent>
      </Card>
      {user && (
        <Typography variant="body2" color="text.secondary">
          {t('mobile.about.version')}: <b data-testid="mobile-about-version">{user.build.version}</b>
          {user.build.date ? (
            <>
              {' '}
              · {t('mobile.about.buildDate')}: <b>{displayDate(user.build.date)}</b>
            </>
          ) : null}
        </Typography>
      )}
    </Box>
  );
}
