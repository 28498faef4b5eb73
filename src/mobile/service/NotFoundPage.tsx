import SearchOffIcon from '@mui/icons-material/SearchOff';
import { useT } from '../../web/i18n/translate';
import { ServicePage } from '../../web/service/ServicePage';

/** /not-found (field-app spec 2.7, a generic page): an address outside the route table; the button goes to the main page. */
export default function NotFoundPage() {
  const t = useT();
  return (
    <ServicePage
      testId="not-found"
      icon={<SearchOffIcon />}
      title={t('mobile.service.notFound.title')}
      text={t('mobile.service.notFound.text')}
    />
  );
}
