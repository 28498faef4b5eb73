import SearchOffIcon from '@mui/icons-material/SearchOff';
import { useT } from '../../web/i18n/translate';
import { ServicePage } from '../../web/service/ServicePage';

/** /not-found: an unknown address, or the landing of a user who may read nothing. */
export default function NotFoundPage() {
  const t = useT();
  return <ServicePage testId="not-found" icon={<SearchOffIcon />} title={t('service.notFound.title')} text={t('service.notFound.text')} />;
}
