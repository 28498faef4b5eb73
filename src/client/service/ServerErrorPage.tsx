import CloudOffIcon from '@mui/icons-material/CloudOff';
import { useT } from '../../web/i18n/translate';
import { ServicePage } from '../../web/service/ServicePage';

/** /server-error: the server gave no response. */
export default function ServerErrorPage() {
  const t = useT();
  return (
    <ServicePage
      testId="server-error"
      icon={<CloudOffIcon />}
      title={t('service.serverError.title')}
      text={t('service.serverError.text')}
    />
  );
}
