import CloudOffIcon from '@mui/icons-material/CloudOff';
import { useT } from '../../web/i18n/translate';
import { ServicePage } from '../../web/service/ServicePage';

/** /server-error (field-app spec 2.7, a generic page): the server failed a request; the button goes to the main page. */
export default function ServerErrorPage() {
  const t = useT();
  return (
    <ServicePage
      testId="server-error"
      icon={<CloudOffIcon />}
      title={t('mobile.service.serverError.title')}
      text={t('mobile.service.serverError.text')}
    />
  );
}
