import { Button } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import { Link } from 'react-router';
import { TopToolbar, useTranslate } from 'react-admin';

/** The list's toolbar: 'Создать' for users with the create right. */
export function UserListActions({ canCreate }: { canCreate: boolean }) {
  const translate = useTranslate();
  return (
    <TopToolbar>
      {canCreate && (
        <Button component={Link} to="/users/create" startIcon={<AddIcon />} variant="contained" size="small" data-testid="user-create">
          {translate('ra.action.create')}
        </Button>
      )}
    </TopToolbar>
  );
}
