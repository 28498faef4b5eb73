import { useState, type MouseEvent } from 'react';
import { Box, Button } from '@mui/material';
import LockIcon from '@mui/icons-material/Lock';
import LockOpenIcon from '@mui/icons-material/LockOpen';
import { useNotify, useRecordContext, useTranslate, useUpdate } from 'react-admin';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { useCurrentUser } from '../../web/stores/sessionStore';
import type { UserRecord } from '../../web/providers/resources/users';

const stop = (event: MouseEvent) => event.stopPropagation();

/**
 * Block or unblock the user of the record, after a confirm dialog (PUT isBlocked). Blocking ends the
 * user's sessions at once on the server. One's own account cannot be blocked from here.
 */
export function BlockUserButton({ variant = 'outlined' }: { variant?: 'text' | 'outlined' }) {
  const user = useRecordContext<UserRecord>();
  const me = useCurrentUser();
  const translate = useTranslate();
  const notify = useNotify();
  const [open, setOpen] = useState(false);
  const [update, { isPending }] = useUpdate<UserRecord>();
  if (!user || user.id === me?.id) return null;
  const blocking = !user.isBlocked;
  const name = user.username;
  const confirm = () =>
    update(
      'users',
      { id: user.id, data: { isBlocked: blocking }, previousData: user },
      {
        mutationMode: 'pessimistic',
        onSuccess: () => {
          setOpen(false);
          notify(blocking ? 'users.blockedDone' : 'users.unblockedDone', { type: 'info', messageArgs: { name } });
        },
        onError: () => setOpen(false),
      },
    );
  return (
    <Box component="span" onClick={stop}>
      <Button
        size="small"
        variant={variant}
        color={blocking ? 'warning' : 'success'}
        startIcon={blocking ? <LockIcon /> : <LockOpenIcon />}
        onClick={() => setOpen(true)}
        disabled={isPending}
        data-testid={blocking ? 'user-block' : 'user-unblock'}
      >
        {translate(blocking ? 'users.block' : 'users.unblock')}
      </Button>
      <ConfirmDialog
        open={open}
        message={translate(blocking ? 'users.confirmBlock' : 'users.confirmUnblock', { name })}
        confirmLabel={translate(blocking ? 'users.block' : 'users.unblock')}
        loading={isPending}
        onConfirm={confirm}
        onClose={() => setOpen(false)}
      />
    </Box>
  );
}
