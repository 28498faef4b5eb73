import { Navigate, useParams } from 'react-router';
import { Edit, SaveButton, SimpleForm, Toolbar, useNotify, useRecordContext, useRedirect, useTranslate } from 'react-admin';
import { DeleteRecordButton } from '../components/DeleteRecordButton';
import { useRights } from '../../web/components/useRights';
import type { UserRecord } from '../../web/providers/resources/users';
import { refreshPermissions } from '../../web/providers/session';
import { useCurrentUser } from '../../web/stores/sessionStore';
import { BlockUserButton } from './BlockUserButton';
import { UserInputs } from './UserInputs';
import { errorShownByClient } from '../../web/providers/httpClient';

function UserTitle() {
  const user = useRecordContext<UserRecord>();
  const translate = useTranslate();
  return <>{translate('users.editTitle', { name: user?.username ?? '' })}</>;
}

/** Save; block or unblock; delete (with the delete right, never oneself). */
function UserToolbar() {
  const rights = useRights('/users');
  const me = useCurrentUser();
  const user = useRecordContext<UserRecord>();
  return (
    <Toolbar sx={{ gap: 1 }}>
      <SaveButton />
      <BlockUserButton />
      <span style={{ flex: 1 }} />
      {rights.delete && user?.id !== me?.id && (
        <DeleteRecordButton confirmMessage="users.confirmDelete" nameOf={(record) => String(record.username)} redirectTo="/users" />
      )}
    </Toolbar>
  );
}

/**
 * /users/edit/:id (update right: react-admin's Edit checks it). A save waits for the server's answer;
 * after changing one's own account the console reloads its own permissions (the roles may have changed).
 */
export function UserEdit() {
  const { id } = useParams();
  const me = useCurrentUser();
  const notify = useNotify();
  const redirect = useRedirect();
  if (!id || !/^\d+$/.test(id)) return <Navigate to="/not-found" replace />;
  const onSuccess = (user: UserRecord) => {
    if (user.id === me?.id) void refreshPermissions().catch(() => undefined);
    notify('users.saved', { type: 'info' });
    redirect('/users');
  };
  return (
    <Edit
      resource="users"
      id={Number(id)}
      title={<UserTitle />}
      mutationMode="pessimistic"
      mutationOptions={{ onSuccess, onError: errorShownByClient }}
    >
      <SimpleForm toolbar={<UserToolbar />} sx={{ maxWidth: 760 }} data-testid="user-form">
        <UserInputs creating={false} />
      </SimpleForm>
    </Edit>
  );
}
