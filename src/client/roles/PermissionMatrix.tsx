import { Card, CardContent, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import type { PermissionMap } from '../../shared/permissions';
import { BITS, BIT_NAMES, MATRIX_GROUPS, otherGroup, type PermissionsChange } from './permissionMatrix';
import { PermissionMatrixGroup } from './PermissionMatrixGroup';

interface PermissionMatrixProps {
  permissions: PermissionMap;
  onChange: PermissionsChange;
  readOnly: boolean;
}

export const BIT_COLUMN_WIDTH = 104;

/**
 * Every permission key of the console (built or not), grouped as the menu groups them, with create,
 * read, update and delete checkboxes; keys a role holds outside the table are listed last, untouched.
 */
export function PermissionMatrix({ permissions, onChange, readOnly }: PermissionMatrixProps) {
  const translate = useTranslate();
  const extra = otherGroup(permissions);
  const groups = extra ? [...MATRIX_GROUPS, extra] : MATRIX_GROUPS;
  return (
    // a card clips its content, which would keep the table's header from sticking
    <Card variant="outlined" sx={{ overflow: 'visible' }}>
      <CardContent sx={{ pb: 0 }}>
        <Typography variant="h6" component="h2">
          {translate('roles.matrix.title')}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {translate('roles.matrix.hint')}
        </Typography>
      </CardContent>
      <Table size="small" stickyHeader data-testid="permission-matrix" sx={{ tableLayout: 'fixed' }}>
        <TableHead>
          <TableRow>
            <TableCell>{translate('roles.matrix.section')}</TableCell>
            {BITS.map((bit) => (
              <TableCell key={bit} align="center" sx={{ width: BIT_COLUMN_WIDTH }}>
                {translate(`roles.matrix.${BIT_NAMES[bit]}`)}
              </TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {groups.map((group) => (
            <PermissionMatrixGroup key={group.group} group={group} permissions={permissions} onChange={onChange} readOnly={readOnly} />
          ))}
        </TableBody>
      </Table>
    </Card>
  );
}
