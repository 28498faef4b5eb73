import { Button } from '@mui/material';
import DownloadIcon from '@mui/icons-material/Download';
import { useTranslate } from 'react-admin';
import { GTFS_API } from '../../shared/gtfs/api';
import { downloadFile } from '../components/downloadFile';

/** The network as a GTFS feed (the export the GTFS-Realtime consumers join to); a failure is shown by the http client. */
export function GtfsDownloadButton() {
  const translate = useTranslate();
  return (
    <Button
      variant="outlined"
      startIcon={<DownloadIcon />}
      data-testid="gtfs-download"
      onClick={() => void downloadFile(GTFS_API.staticFeed, 'gtfs.zip').catch(() => undefined)}
    >
      {translate('gtfs.download')}
    </Button>
  );
}
