import { Box, Card, CardContent, CircularProgress, Stack, Typography } from '@mui/material';
import { useT } from '../../web/i18n/translate';
import { useAbout } from './aboutApi';
import { ManualList } from './ManualList';
import { ModuleList } from './ModuleList';

/** YYYY-MM-DD as DD.MM.YYYY (spec section 9). */
const displayDate = (iso: string) => iso.replace(/^(\d{4})-(\d{2})-(\d{2}).*$/, '$3.$2.$1');

/** /about, always available: modules and their state, manuals, version and build date. */
export default function AboutPage() {
  const t = useT();
  const { about, failed } = useAbout();
  if (!about) {
    return <Box sx={{ p: 4, display: 'flex', justifyContent: 'center' }}>{failed ? null : <CircularProgress />}</Box>;
  }
  return (
    <Stack spacing={2} sx={{ p: 2, maxWidth: 960 }} data-testid="about-page">
      <Box>
        <Typography variant="h5" component="h1">
          {t('app.name')}
        </Typography>
        <Typography color="text.secondary">{t('app.subtitle')}</Typography>
        <Typography variant="body2" sx={{ mt: 1 }}>
          {t('about.version')}: <b data-testid="about-version">{about.build.version}</b> · {t('about.buildDate')}:{' '}
          <b>{displayDate(about.build.date)}</b>
        </Typography>
      </Box>
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} sx={{ alignItems: 'flex-start' }}>
        <Card variant="outlined" sx={{ flex: 3, width: '100%' }}>
          <CardContent>
            <Typography variant="h6" gutterBottom>
              {t('about.modules')}
            </Typography>
            <ModuleList modules={about.modules} />
          </CardContent>
        </Card>
        <Card variant="outlined" sx={{ flex: 2, width: '100%' }}>
          <CardContent>
            <Typography variant="h6" gutterBottom>
              {t('about.manuals')}
            </Typography>
            <ManualList manuals={about.manuals} />
          </CardContent>
        </Card>
      </Stack>
    </Stack>
  );
}
