import { Button } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import { Link } from 'react-router';
import { DataTable, List, SearchInput, TopToolbar, useTranslate } from 'react-admin';
import { useRights } from '../../web/components/useRights';
import type { RoleRecord } from '../../web/providers/resources/roles';
import { SystemRoleBadge } from './SystemRoleBadge';
import { errorShownByClient } from '../../web/providers/httpClient';

const Column = DataTable.Col<RoleRecord>;

function RoleListActions({ canCreate }: { canCreate: boolean }) {
  const translate = useTranslate();
  return (
    <TopToolbar>
      {canCreate && (
        <Button component={Link} to="/roles/create" startIcon={<AddIcon />} variant="contained" size="small" data-testid="role-create">
          {translate('ra.action.create')}
        </Button>
      )}
    </TopToolbar>
  );
}

/** /roles: every role with its users count and a badge on system roles; a row opens the role. */
export function RoleList() {
  const translate = useTranslate();
  const rights = useRights('/roles');
  return (
    <List
      resource="roles"
      title="roles.title"
      perPage={100}
      pagination={false}
      sort={{ field: 'name', order: 'ASC' }}
      filters={[<SearchInput key="q" source="q" alwaysOn placeholder={translate('roles.search')} />]}
      actions={<RoleListActions canCreate={rights.create} />}
      storeKey="console.roles"
      empty={false}
      queryOptions={{ onError: errorShownByClient }}
    >
      <DataTable bulkActionButtons={false} rowClick={(id) => `/roles/${id}`} data-testid="roles-table">
        <Column source="name" label="roles.fields.name" />
        <Column source="description" label="roles.fields.description" />
        <DataTable.NumberCol source="usersCount" label="roles.fields.usersCount" />
        <Column source="isSystem" label="roles.fields.isSystem" render={(role) => <SystemRoleBadge role={role} />} />
      </DataTable>
    </List>
  );
}
