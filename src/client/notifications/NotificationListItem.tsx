import { Box, ListItemButton, ListItemText, Typography } from '@mui/material';
import { Link } from 'react-router';
import { useTranslate } from 'react-admin';
import { formatDateTime } from '../../shared/format';
import type { NotificationItem } from './notificationState';

const SEVERITY_COLORS: Record<string, string> = { info: 'info.main', warning: 'warning.main', critical: 'error.main' };

/** One notification: a new one highlighted; a click follows its link (a console path) and closes the list. */
export function NotificationListItem({ item, isNew, onNavigate }: { item: NotificationItem; isNew: boolean; onNavigate: () => void }) {
  const translate = useTranslate();
  const linkProps = item.link ? { component: Link, to: item.link, onClick: onNavigate } : {};
  return (
    <ListItemButton
      {...linkProps}
      sx={{
        alignItems: 'flex-start',
        borderLeft: 4,
        borderColor: SEVERITY_COLORS[item.severity] ?? 'divider',
        bgcolor: isNew ? 'rgba(0, 58, 114, 0.08)' : undefined,
      }}
      data-testid="notification-item"
      data-new={isNew}
    >
      <ListItemText
        primary={
          <Typography variant="body2" sx={{ fontWeight: isNew ? 600 : 400 }}>
            {item.title}
          </Typography>
        }
        secondary={
          <>
            {item.body && (
              <Box component="span" sx={{ display: 'block' }}>
                {item.body}
              </Box>
            )}
            <Box component="span" sx={{ display: 'flex', gap: 1 }}>
              <span>{formatDateTime(item.at)}</span>
              <span>·</span>
              <span>{translate(`notifications.types.${item.type}`, { _: item.type })}</span>
              {isNew && (
                <Box component="span" sx={{ color: 'primary.main', fontWeight: 500 }}>
                  · {translate('notifications.isNew')}
                </Box>
              )}
            </Box>
          </>
        }
      />
    </ListItemButton>
  );
}
