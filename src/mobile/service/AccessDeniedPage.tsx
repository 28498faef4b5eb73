import { Button } from '@mui/material';
import LockIcon from '@mui/icons-material/LockOutlined';
import { useNavigate } from 'react-router';
import { useT } from '../../web/i18n/translate';
import { ServicePage } from '../../web/service/ServicePage';
import { pathWithMenu } from '../routing/useMainMenu';

/** /access-denied (field-app spec 2.7): 'Нет доступа'; the button goes to / and opens the main menu. */
export default function AccessDeniedPage() {
  const t = useT();
  const navigate = useNavigate();
  return (
    <ServicePage
      testId="access-denied"
      icon={<LockIcon />}
      title={t('mobile.service.accessDenied.title')}
      text={t('mobile.service.accessDenied.text')}
      action={
        <Button variant="contained" size="large" onClick={() => void navigate(pathWithMenu('/'))} data-testid="access-denied-main">
          {t('mobile.service.toMain')}
        </Button>
      }
    />
  );
}
