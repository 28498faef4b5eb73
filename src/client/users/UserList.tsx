import { DataTable, List, Pagination, ReferenceArrayField, SearchInput, SingleFieldList, ChipField, useTranslate } from 'react-admin';
import type { SxProps } from '@mui/material';
import { SHARED_PAGE_SIZE } from '../../shared/constants';
import { useRights } from '../../web/components/useRights';
import type { UserRecord } from '../../web/providers/resources/users';
import { BlockUserButton } from './BlockUserButton';
import { UserInfoSummary } from './UserInfoSummary';
import { UserListActions } from './UserListActions';
import { UserStatusField } from './UserStatusField';
import { errorShownByClient } from '../../web/providers/httpClient';

export const USER_PAGE_SIZES = [10, SHARED_PAGE_SIZE, 50, 100];

const Column = DataTable.Col<UserRecord>;
const fullName = (user: UserRecord) => `${user.lastName} ${user.firstName}`.trim();
const BLOCKED_ROW: SxProps = { '& td': { color: 'text.disabled' } };
const PLAIN_ROW: SxProps = {};

/** /users: search, sortable columns, paging, the users/info summary; rows open the edit form. */
export function UserList() {
  const translate = useTranslate();
  const rights = useRights('/users');
  // role names come from /api/v1/roles, which takes the roles read right
  const canReadRoles = useRights('/roles').read;
  const filters = [<SearchInput key="q" source="q" alwaysOn placeholder={translate('users.search')} sx={{ minWidth: 320 }} />];
  return (
    <List
      resource="users"
      title="users.title"
      perPage={SHARED_PAGE_SIZE}
      sort={{ field: 'username', order: 'ASC' }}
      filters={filters}
      actions={<UserListActions canCreate={rights.create} />}
      pagination={<Pagination rowsPerPageOptions={USER_PAGE_SIZES} />}
      storeKey="console.users"
      empty={false}
      queryOptions={{ onError: errorShownByClient }}
    >
      <UserInfoSummary />
      <DataTable
        bulkActionButtons={false}
        rowClick={rights.update ? (id) => `/users/edit/${id}` : false}
        rowSx={(user) => (user.isBlocked ? BLOCKED_ROW : PLAIN_ROW)}
        data-testid="users-table"
      >
        <Column source="username" label="users.fields.username" />
        <Column source="lastName" label="users.fields.name" render={fullName} />
        <Column source="title" label="users.fields.title" />
        <Column source="email" label="users.fields.email" />
        {canReadRoles && (
          <Column source="roles" label="users.fields.roles" disableSort>
            <ReferenceArrayField source="roles" reference="roles">
              <SingleFieldList linkType={false}>
                <ChipField source="name" size="small" />
              </SingleFieldList>
            </ReferenceArrayField>
          </Column>
        )}
        <Column source="isBlocked" label="users.fields.isBlocked">
          <UserStatusField />
        </Column>
        {rights.update && (
          <Column label="" disableSort align="right">
            <BlockUserButton variant="text" />
          </Column>
        )}
      </DataTable>
    </List>
  );
}
