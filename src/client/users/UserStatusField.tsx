import { Chip } from '@mui/material';
import { useRecordContext, useTranslate } from 'react-admin';
import type { UserRecord } from '../../web/providers/resources/users';

/** Blocked or active, as a small chip. */
export function UserStatusField() {
  const user = useRecordContext<UserRecord>();
  const translate = useTranslate();
  if (!user) return null;
  return user.isBlocked ? (
    <Chip size="small" color="error" variant="outlined" label={translate('users.blocked')} data-testid="user-blocked" />
  ) : (
    <Chip size="small" color="success" variant="outlined" label={translate('users.active')} />
  );
}
