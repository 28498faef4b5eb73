import { useState } from 'react';
import { Box, Button, Divider, MenuItem, Popover, TablePagination, TextField, Typography } from '@mui/material';
import DoneAllIcon from '@mui/icons-material/DoneAll';
import { useTranslate } from 'react-admin';
import { NOTIFICATION_PAGE_SIZE, NOTIFICATION_TYPES } from './notificationsApi';
import { NotificationListBody } from './NotificationListBody';
import { useNotificationList } from './useNotificationList';

interface NotificationPopoverProps {
  anchor: HTMLElement | null;
  count: number;
  onCount: (count: number) => void;
  onClose: () => void;
}

/** The bell's list: type filter, the page, paging and 'Отметить все как просмотренные'. */
export function NotificationPopover({ anchor, count, onCount, onClose }: NotificationPopoverProps) {
  const translate = useTranslate();
  const [type, setType] = useState('');
  const [page, setPage] = useState(0);
  const [marking, setMarking] = useState(false);
  const { state, reload, setAllViewed } = useNotificationList(Boolean(anchor), type, page);
  const markAll = async () => {
    setMarking(true);
    try {
      onCount(await setAllViewed());
    } catch {
      // shown by the http client
    } finally {
      setMarking(false);
    }
  };
  return (
    <Popover
      open={Boolean(anchor)}
      anchorEl={anchor}
      onClose={onClose}
      anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
      transformOrigin={{ vertical: 'top', horizontal: 'right' }}
      slotProps={{
        paper: { sx: { width: 460, maxWidth: 'calc(100vw - 16px)' }, 'data-testid': 'notification-popover' } as Record<string, unknown>,
      }}
    >
      <Box sx={{ px: 2, pt: 1.5, pb: 1, display: 'flex', alignItems: 'center', gap: 2 }}>
        <Typography variant="subtitle1" sx={{ flex: 1, fontWeight: 500 }}>
          {translate('notifications.title')}
        </Typography>
        <TextField
          select
          size="small"
          label={translate('notifications.type')}
          value={type}
          onChange={(event) => {
            setType(event.target.value);
            setPage(0);
          }}
          sx={{ minWidth: 200 }}
          slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true }, htmlInput: { 'data-testid': 'notification-type' } }}
        >
          <MenuItem value="">{translate('notifications.allTypes')}</MenuItem>
          {NOTIFICATION_TYPES.map((id) => (
            <MenuItem key={id} value={id}>
              {translate(`notifications.types.${id}`)}
            </MenuItem>
          ))}
        </TextField>
      </Box>
      <Divider />
      <NotificationListBody state={state} onRetry={reload} onNavigate={onClose} />
      <Divider />
      <Box sx={{ display: 'flex', alignItems: 'center', px: 1 }}>
        <Button
          size="small"
          startIcon={<DoneAllIcon />}
          onClick={() => void markAll()}
          disabled={marking || (count === 0 && state.newIds.length === 0)}
          sx={{ whiteSpace: 'nowrap' }}
          data-testid="notification-mark-all"
        >
          {translate('notifications.markAll')}
        </Button>
        <TablePagination
          component="div"
          count={state.total}
          page={state.total === 0 ? 0 : page}
          onPageChange={(_, next) => setPage(next)}
          rowsPerPage={NOTIFICATION_PAGE_SIZE}
          rowsPerPageOptions={[]}
          labelDisplayedRows={({ from, to, count: total }) =>
            translate('ra.navigation.page_range_info', { offsetBegin: from, offsetEnd: to, total })
          }
          getItemAriaLabel={(kind) =>
            translate(kind === 'next' ? 'ra.navigation.next' : kind === 'previous' ? 'ra.navigation.previous' : `ra.navigation.${kind}`)
          }
          sx={{ ml: 'auto', '& .MuiTablePagination-toolbar': { minHeight: 40, pl: 1 }, '& .MuiTablePagination-actions': { ml: 1 } }}
        />
      </Box>
    </Popover>
  );
}
