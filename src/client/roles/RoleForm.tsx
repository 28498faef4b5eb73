import { Alert, Stack } from '@mui/material';
import { SaveButton, SimpleForm, TextInput, Toolbar, required, useRecordContext, useTranslate } from 'react-admin';
import { DeleteRecordButton } from '../components/DeleteRecordButton';
import { useRights } from '../../web/components/useRights';
import { refreshPermissions } from '../../web/providers/session';
import type { RoleRecord } from '../../web/providers/resources/roles';
import { PermissionsInput } from './PermissionsInput';

/** The console picks up its own new rights after a role changes (spec section 7). */
export const refreshAfterRoleChange = () => void refreshPermissions().catch(() => undefined);

function RoleToolbar({ creating }: { creating: boolean }) {
  const rights = useRights('/roles');
  return (
    <Toolbar sx={{ gap: 1, position: 'sticky', bottom: 0, zIndex: 2 }}>
      <SaveButton />
      <span style={{ flex: 1 }} />
      {!creating && rights.delete && (
        <DeleteRecordButton
          confirmMessage="roles.confirmDelete"
          nameOf={(role) => String(role.name)}
          redirectTo="/roles"
          onDeleted={refreshAfterRoleChange}
        />
      )}
    </Toolbar>
  );
}

/**
 * The role form: name, description, then the named codes and the permission matrix. A system role, or
 * any role for a user without the update (create) right, is shown read-only with a note saying why.
 */
export function RoleForm({ creating }: { creating: boolean }) {
  const translate = useTranslate();
  const rights = useRights('/roles');
  const role = useRecordContext<RoleRecord>();
  const isSystem = Boolean(role?.isSystem);
  const mayWrite = creating ? rights.create : rights.update;
  const readOnly = isSystem || !mayWrite;
  return (
    <SimpleForm toolbar={readOnly ? false : <RoleToolbar creating={creating} />} data-testid="role-form">
      {isSystem && (
        <Alert severity="info" sx={{ mb: 1 }} data-testid="system-role-note">
          {translate('roles.systemNote')}
        </Alert>
      )}
      {!isSystem && !mayWrite && (
        <Alert severity="info" sx={{ mb: 1 }}>
          {translate('roles.readOnlyNote')}
        </Alert>
      )}
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={{ xs: 0, md: 2 }} sx={{ width: '100%', maxWidth: 960 }}>
        <TextInput source="name" label="roles.fields.name" validate={required()} readOnly={readOnly} sx={{ flex: 1 }} />
        <TextInput source="description" label="roles.fields.description" readOnly={readOnly} sx={{ flex: 2 }} />
      </Stack>
      <PermissionsInput readOnly={readOnly} />
    </SimpleForm>
  );
}
