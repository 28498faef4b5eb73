import LockIcon from '@mui/icons-material/LockOutlined';
import { useT } from '../../web/i18n/translate';
import { ServicePage } from '../../web/service/ServicePage';

/** /access-denied: after a 403, or a route the user may not open. */
export default function AccessDeniedPage() {
  const t = useT();
  return (
    <ServicePage testId="access-denied" icon={<LockIcon />} title={t('service.accessDenied.title')} text={t('service.accessDenied.text')} />
  );
}
