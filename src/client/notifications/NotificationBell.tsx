import { useState } from 'react';
import { Badge, IconButton, Tooltip } from '@mui/material';
import NotificationsIcon from '@mui/icons-material/Notifications';
import { useTranslate } from 'react-admin';
import { badgeText } from './notificationState';
import { NotificationPopover } from './NotificationPopover';
import { useNotificationCount } from './useNotificationCount';

/** The bell of the app bar: the unseen count as a badge; a click opens the list. */
export function NotificationBell() {
  const translate = useTranslate();
  const { count, setCount, refresh } = useNotificationCount();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const label = translate('notifications.bell');
  return (
    <>
      <Tooltip title={label}>
        <IconButton
          color="inherit"
          aria-label={count > 0 ? `${label}: ${count}` : label}
          onClick={(event) => {
            setAnchor(event.currentTarget);
            refresh();
          }}
          data-testid="notification-bell"
          data-count={count}
        >
          <Badge badgeContent={badgeText(count)} color="error" invisible={count <= 0} data-testid="notification-badge">
            <NotificationsIcon />
          </Badge>
        </IconButton>
      </Tooltip>
      <NotificationPopover anchor={anchor} count={count} onCount={setCount} onClose={() => setAnchor(null)} />
    </>
  );
}
