import { Create, useNotify, useRedirect } from 'react-admin';
import { RoleForm, refreshAfterRoleChange } from './RoleForm';
import { errorShownByClient } from '../../web/providers/httpClient';

const BLANK_ROLE = { name: '', description: '', permissions: {} };

/** /roles/create: a new role with an empty mask; the create right is checked by react-admin. */
export function RoleCreate() {
  const notify = useNotify();
  const redirect = useRedirect();
  const onSuccess = () => {
    refreshAfterRoleChange();
    notify('roles.created', { type: 'info' });
    redirect('/roles');
  };
  return (
    <Create resource="roles" title="roles.createTitle" record={BLANK_ROLE} mutationOptions={{ onSuccess, onError: errorShownByClient }}>
      <RoleForm creating />
    </Create>
  );
}
