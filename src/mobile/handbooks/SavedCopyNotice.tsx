import { Alert } from '@mui/material';
import { formatDateTime } from '../../shared/format';
import { useT } from '../../web/i18n/translate';

/** A handbook page read from the phone's copy: says so, and how old it is. */
export function SavedCopyNotice({ savedAt }: { savedAt?: number }) {
  const t = useT();
  if (savedAt === undefined) return null;
  return (
    <Alert severity="info" sx={{ borderRadius: 0 }} data-testid="handbook-saved-copy">
      {t('mobile.handbooks.fromCache', { time: formatDateTime(new Date(savedAt).toISOString(), { seconds: false }) })}
    </Alert>
  );
}
