import { Box, CircularProgress, Typography } from '@mui/material';
import { useT } from '../i18n/translate';

/** Shown while the app starts (the current user of a stored token is loading) or a screen's code loads. */
export function LoadingScreen() {
  const t = useT();
  return (
    <Box sx={{ height: '100vh', display: 'flex', flexDirection: 'column', alignItems: 'center', justifyContent: 'center', gap: 2 }}>
      <CircularProgress />
      <Typography color="text.secondary">{t('app.loading')}</Typography>
    </Box>
  );
}
