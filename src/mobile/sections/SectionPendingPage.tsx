import { Box, Typography } from '@mui/material';
import ConstructionIcon from '@mui/icons-material/Construction';
import { useT } from '../../client/i18n/translate';

/**
 * A section of the route table whose screen the field app does not have yet (screens.tsx): says so plainly,
 * with no stand-in content.
 */
export default function SectionPendingPage({ title }: { title: string }) {
  const t = useT();
  return (
    <Box
      data-testid="section-pending"
      sx={{ flex: 1, display: 'flex', flexDirection: 'column', alignItems: 'center', justifyContent: 'center', gap: 1.5, p: 3, textAlign: 'center' }}
    >
      <Box sx={{ color: 'primary.main', '& svg': { fontSize: 64 } }}><ConstructionIcon /></Box>
      <Typography variant="h6" component="h1">{title}</Typography>
      <Typography>{t('mobile.pending.text')}</Typography>
      <Typography variant="body2" color="text.secondary">{t('mobile.pending.hint')}</Typography>
    </Box>
  );
}
