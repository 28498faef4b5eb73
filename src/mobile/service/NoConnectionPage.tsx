import { useState } from 'react';
import { Button, CircularProgress } from '@mui/material';
import WifiOffIcon from '@mui/icons-material/WifiOff';
import { useNavigate } from 'react-router';
import { useT } from '../../web/i18n/translate';
import { reloadCurrentUser } from '../../web/providers/session';
import { ServicePage } from '../../web/service/ServicePage';

/**
 * /no-connection (field-app spec 2.7 and 8): where a request without an answer leads. The refresh button
 * asks for the current user again (GET /api/v1/auth/current) and goes to / when the server answers; without
 * an answer the page stays.
 */
export default function NoConnectionPage() {
  const t = useT();
  const navigate = useNavigate();
  const [pending, setPending] = useState(false);
  const refresh = async () => {
    setPending(true);
    try {
      await reloadCurrentUser();
      void navigate('/', { replace: true });
    } catch {
      setPending(false);
    }
  };
  return (
    <ServicePage
      testId="no-connection"
      icon={<WifiOffIcon />}
      title={t('mobile.service.noConnection.title')}
      text={t('mobile.service.noConnection.text')}
      action={
        <Button
          variant="contained"
          size="large"
          onClick={() => void refresh()}
          disabled={pending}
          startIcon={pending ? <CircularProgress size={18} color="inherit" /> : null}
          data-testid="no-connection-refresh"
        >
          {t('mobile.service.refresh')}
        </Button>
      }
    />
  );
}
