import { useCallback, useRef } from 'react';
import { Stack } from '@mui/material';
import { useInput } from 'react-admin';
import type { PermissionMap } from '../../shared/permissions';
import { PermissionCodeList } from './PermissionCodeList';
import { PermissionMatrix } from './PermissionMatrix';
import type { PermissionsChange } from './permissionMatrix';

/**
 * The role's `permissions` field: the named codes and the matrix, two views of one permission map.
 * Changes are computed from the latest map (checkbox handlers stay stable, so rows re-render only when
 * their own bits change).
 */
export function PermissionsInput({ readOnly }: { readOnly: boolean }) {
  const { field } = useInput<PermissionMap>({ source: 'permissions', defaultValue: {} });
  const permissions: PermissionMap = field.value ?? {};
  const latest = useRef({ permissions, onChange: field.onChange });
  latest.current = { permissions, onChange: field.onChange };
  const change = useCallback<PermissionsChange>((update) => {
    latest.current.onChange(update(latest.current.permissions));
  }, []);
  return (
    <Stack spacing={2} sx={{ width: '100%' }} data-testid="permissions-input">
      <PermissionCodeList permissions={permissions} onChange={change} readOnly={readOnly} />
      <PermissionMatrix permissions={permissions} onChange={change} readOnly={readOnly} />
    </Stack>
  );
}
