import { Create, LinearProgress, SimpleForm, useGetOne, useNotify, useRedirect } from 'react-admin';
import type { UserRecord } from '../../web/providers/resources/users';
import { UserInputs } from './UserInputs';
import { errorShownByClient } from '../../web/providers/httpClient';

/**
 * /users/create: the form starts from the server's blank template (GET /api/v1/users/0). A refusal is
 * shown translated under its field and in the message stack (the http client), not as a raw code.
 */
export function UserCreate() {
  const { data: template, isPending } = useGetOne<UserRecord>('users', { id: 0 });
  const notify = useNotify();
  const redirect = useRedirect();
  if (isPending) return <LinearProgress />;
  const onSuccess = () => {
    notify('users.created', { type: 'info' });
    redirect('/users');
  };
  return (
    <Create
      resource="users"
      title="users.createTitle"
      record={{ ...template, id: undefined, password: '' }}
      mutationOptions={{ onSuccess, onError: errorShownByClient }}
    >
      <SimpleForm sx={{ maxWidth: 760 }} data-testid="user-form">
        <UserInputs creating />
      </SimpleForm>
    </Create>
  );
}
