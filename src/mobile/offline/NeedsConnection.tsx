import { Button } from '@mui/material';
import CloudOffIcon from '@mui/icons-material/CloudOffOutlined';
import { useT } from '../../web/i18n/translate';
import { ServicePage } from '../../web/service/ServicePage';

/**
 * What a data screen shows without a connection (the issue: "data screens say plainly that they need the
 * connection"), with a retry that loads the page again.
 */
export function NeedsConnection({ onRetry }: { onRetry?: () => void }) {
  const t = useT();
  return (
    <ServicePage
      testId="needs-connection"
      icon={<CloudOffIcon />}
      title={t('mobile.offline.title')}
      text={t('mobile.offline.text')}
      action={
        <Button variant="contained" size="large" onClick={onRetry ?? (() => window.location.reload())} data-testid="needs-connection-retry">
          {t('mobile.offline.retry')}
        </Button>
      }
    />
  );
}
