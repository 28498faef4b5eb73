import type { ReactNode } from 'react';
import { Alert, Box, Button, CircularProgress, List } from '@mui/material';
import { useTranslate } from 'react-admin';
import { isNew, type NotificationListState } from './notificationState';
import { NotificationListItem } from './NotificationListItem';

function Notice({ children, state }: { children: ReactNode; state: string }) {
  return (
    <Box
      sx={{ py: 4, px: 2, display: 'flex', gap: 1, alignItems: 'center', justifyContent: 'center', color: 'text.secondary' }}
      data-testid="notification-state"
      data-state={state}
    >
      {children}
    </Box>
  );
}

/** The list by its load state (spec section 3): loading, failure (with retry), success (items or none). */
export function NotificationListBody({
  state,
  onRetry,
  onNavigate,
}: {
  state: NotificationListState;
  onRetry: () => void;
  onNavigate: () => void;
}) {
  const translate = useTranslate();
  if (state.load === 'idle' || state.load === 'loading') {
    return (
      <Notice state="loading">
        <CircularProgress size={18} /> {translate('notifications.loading')}
      </Notice>
    );
  }
  if (state.load === 'failure') {
    return (
      <Box sx={{ p: 2 }} data-testid="notification-state" data-state="failure">
        <Alert
          severity="error"
          action={
            <Button color="inherit" size="small" onClick={onRetry}>
              {translate('notifications.retry')}
            </Button>
          }
        >
          {translate('notifications.failed')}
        </Alert>
      </Box>
    );
  }
  if (state.list.length === 0) return <Notice state="success">{translate('notifications.empty')}</Notice>;
  return (
    <List dense disablePadding sx={{ maxHeight: 420, overflowY: 'auto' }} data-testid="notification-state" data-state="success">
      {state.list.map((item) => (
        <NotificationListItem key={item.id} item={item} isNew={isNew(state, item)} onNavigate={onNavigate} />
      ))}
    </List>
  );
}
