import WifiOffIcon from '@mui/icons-material/WifiOff';
import { useT } from '../../web/i18n/translate';
import { ServicePage } from '../../web/service/ServicePage';

/** /no-connection: no server response on a native device (kept for the packaged builds). */
export default function NoConnectionPage() {
  const t = useT();
  return (
    <ServicePage
      testId="no-connection"
      icon={<WifiOffIcon />}
      title={t('service.noConnection.title')}
      text={t('service.noConnection.text')}
    />
  );
}
