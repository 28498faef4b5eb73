import { Navigate, useParams } from 'react-router';
import { Edit, useNotify, useRecordContext, useRedirect, useTranslate } from 'react-admin';
import type { RoleRecord } from '../../web/providers/resources/roles';
import { RoleForm, refreshAfterRoleChange } from './RoleForm';
import { errorShownByClient } from '../../web/providers/httpClient';

function RoleTitle() {
  const role = useRecordContext<RoleRecord>();
  const translate = useTranslate();
  return <>{translate('roles.editTitle', { name: role?.name ?? '' })}</>;
}

/**
 * /roles/:id. Readers see it too (read-only), so react-admin's own edit-right check is off: the route
 * guard has checked the read right, the form checks the update right, the server refuses the rest.
 * After a save the console reloads its own permissions (POST /api/v1/auth/update-permissions).
 */
export function RoleEdit() {
  const { id } = useParams();
  const notify = useNotify();
  const redirect = useRedirect();
  if (!id || !/^\d+$/.test(id)) return <Navigate to="/not-found" replace />;
  const onSuccess = () => {
    refreshAfterRoleChange();
    notify('roles.saved', { type: 'info' });
    redirect('/roles');
  };
  return (
    <Edit
      resource="roles"
      id={Number(id)}
      title={<RoleTitle />}
      mutationMode="pessimistic"
      mutationOptions={{ onSuccess, onError: errorShownByClient }}
      disableAuthentication
    >
      <RoleForm creating={false} />
    </Edit>
  );
}
