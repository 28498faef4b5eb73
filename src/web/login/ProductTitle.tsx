import { Box, Typography } from '@mui/material';
import DirectionsBusIcon from '@mui/icons-material/DirectionsBus';
import { useT } from '../i18n/translate';

/** The product name and subtitle above the login form (the console's subtitle unless another is given). */
export function ProductTitle({ subtitle }: { subtitle?: string } = {}) {
  const t = useT();
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, mb: 3 }}>
      <Box sx={{ bgcolor: 'primary.main', color: 'primary.contrastText', borderRadius: 2, p: 1, display: 'flex' }}>
        <DirectionsBusIcon fontSize="large" />
      </Box>
      <Box>
        <Typography variant="h6" component="p" sx={{ lineHeight: 1.2, fontWeight: 500 }}>
          {t('app.name')}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {subtitle ?? t('app.subtitle')}
        </Typography>
      </Box>
    </Box>
  );
}
