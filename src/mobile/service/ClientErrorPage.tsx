import ReportProblemOutlinedIcon from '@mui/icons-material/ReportProblemOutlined';
import { useT } from '../../web/i18n/translate';
import { ServicePage } from '../../web/service/ServicePage';

/** /client-error (field-app spec 2.7, a generic page): an error in the application; the button goes to the main page. */
export default function ClientErrorPage() {
  const t = useT();
  return (
    <ServicePage
      testId="client-error"
      icon={<ReportProblemOutlinedIcon />}
      title={t('mobile.service.clientError.title')}
      text={t('mobile.service.clientError.text')}
    />
  );
}
