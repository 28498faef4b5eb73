import { useState } from 'react';
import { Box, IconButton, Tooltip } from '@mui/material';
import PlayArrowIcon from '@mui/icons-material/PlayArrow';
import CancelIcon from '@mui/icons-material/Cancel';
import ReplayIcon from '@mui/icons-material/Replay';
import DeleteIcon from '@mui/icons-material/Delete';
import { Link as RouterLink } from 'react-router';
import { useTranslate } from 'react-admin';
import type { ReportDeclaration } from '../../shared/reports/types';
import { CANCELLABLE_STATUSES, ERROR_STATUSES, VIDEO_STATUS } from '../../shared/video/statuses';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { useRights } from '../../web/components/useRights';
import { showMessage } from '../../web/stores/messageStore';
import { useCurrentUser } from '../../web/stores/sessionStore';
import { cancelRequest, deleteRequest, retryRequest } from '../../web/video/videoApi';

/**
 * A video request's actions in the lists (SCREENS.md, "Video"): watch a performed one, cancel one under
 * way, retry one that failed, delete (code 24 any request, code 27 one's own): each shown only where it
 * applies and the user holds its right (the server checks again).
 */
export function VideoRequestActions({
  report,
  row,
  onChanged,
}: {
  report: ReportDeclaration;
  row: Record<string, unknown>;
  onChanged: () => void;
}) {
  const translate = useTranslate();
  const user = useCurrentUser();
  const requests = useRights('/video/requests');
  const archive = useRights('/video/archive');
  const mine = useRights('/video/myrequests');
  const [confirming, setConfirming] = useState(false);
  const id = Number(row.id);
  const status = Number(row.status);
  const own = report.path === '/video/myrequests' || row.user_id === user?.id;
  const act = (run: () => Promise<unknown>, done: string) => () => {
    run().then(
      () => {
        showMessage(translate(done), 'success');
        onChanged();
      },
      () => undefined,
    );
  };
  const performed = status === VIDEO_STATUS.performed || status === VIDEO_STATUS.viewed;
  const mayDelete = status !== VIDEO_STATUS.deleting && status !== VIDEO_STATUS.deleted && (archive.delete || (own && mine.delete));
  return (
    <Box component="span" data-testid={`video-request-actions-${id}`}>
      {performed && archive.read && (
        <Tooltip title={translate('video.actions.play')}>
          <IconButton size="small" component={RouterLink} to={`/video/archive?play=${id}`} data-testid="video-play">
            <PlayArrowIcon fontSize="small" />
          </IconButton>
        </Tooltip>
      )}
      {(CANCELLABLE_STATUSES as readonly number[]).includes(status) && requests.update && (
        <Tooltip title={translate('video.actions.cancel')}>
          <IconButton size="small" onClick={act(() => cancelRequest(id), 'video.actions.cancelled')} data-testid="video-cancel">
            <CancelIcon fontSize="small" />
          </IconButton>
        </Tooltip>
      )}
      {(ERROR_STATUSES as readonly number[]).includes(status) && requests.update && (
        <Tooltip title={translate('video.actions.retry')}>
          <IconButton size="small" onClick={act(() => retryRequest(id), 'video.actions.retried')} data-testid="video-retry">
            <ReplayIcon fontSize="small" />
          </IconButton>
        </Tooltip>
      )}
      {mayDelete && (
        <Tooltip title={translate('video.actions.delete')}>
          <IconButton size="small" onClick={() => setConfirming(true)} data-testid="video-delete">
            <DeleteIcon fontSize="small" />
          </IconButton>
        </Tooltip>
      )}
      <ConfirmDialog
        open={confirming}
        message={translate('video.actions.confirmDelete', { id })}
        onClose={() => setConfirming(false)}
        onConfirm={() => {
          setConfirming(false);
          act(() => deleteRequest(id), 'video.actions.deleted')();
        }}
      />
    </Box>
  );
}
