import { Chip } from '@mui/material';
import LockIcon from '@mui/icons-material/Lock';
import { useTranslate } from 'react-admin';
import type { RoleRecord } from '../../web/providers/resources/roles';

/** 'Системная' on a system role; nothing on the others. */
export function SystemRoleBadge({ role }: { role: Pick<RoleRecord, 'isSystem'> | undefined }) {
  const translate = useTranslate();
  if (!role?.isSystem) return null;
  return (
    <Chip size="small" color="primary" variant="outlined" icon={<LockIcon />} label={translate('roles.system')} data-testid="system-role" />
  );
}
