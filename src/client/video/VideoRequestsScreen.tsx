import { Button } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import { Link as RouterLink, useLocation } from 'react-router';
import { useTranslate } from 'react-admin';
import { VIDEO_MY_REQUESTS, VIDEO_REQUESTS } from '../../shared/reports/video';
import { useRights } from '../../web/components/useRights';
import { ReportPage } from '../reports/ReportScreen';

/** /video/requests and /video/myrequests: the declared lists, with «Новый запрос» for holders of code 23. */
export default function VideoRequestsScreen() {
  const translate = useTranslate();
  const { pathname } = useLocation();
  const report = pathname.startsWith('/video/myrequests') ? VIDEO_MY_REQUESTS : VIDEO_REQUESTS;
  const mayCreate = useRights('/video/requests').create;
  const create = mayCreate && (
    <Button
      size="small"
      variant="contained"
      startIcon={<AddIcon />}
      component={RouterLink}
      to="/video/requests/create"
      data-testid="video-request-create"
    >
      {translate('video.actions.create')}
    </Button>
  );
  return <ReportPage key={report.path} report={report} toolbar={create} />;
}
