import { useState } from 'react';
import { Checkbox, IconButton, TableCell, TableRow, Typography } from '@mui/material';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import ChevronRightIcon from '@mui/icons-material/ChevronRight';
import { useTranslate } from 'react-admin';
import type { PermissionMap } from '../../shared/permissions';
import { BITS, BIT_NAMES, bitsOf, columnState, grantedCount, setBits, type MatrixGroup, type PermissionsChange } from './permissionMatrix';
import { PermissionMatrixRow } from './PermissionMatrixRow';

interface PermissionMatrixGroupProps {
  group: MatrixGroup;
  permissions: PermissionMap;
  onChange: PermissionsChange;
  readOnly: boolean;
}

/**
 * One menu group of the matrix: a header row (fold, name, how many of its keys hold a right, and a
 * checkbox per column for the whole group), then its rows. Open at first when it grants anything.
 */
export function PermissionMatrixGroup({ group, permissions, onChange, readOnly }: PermissionMatrixGroupProps) {
  const translate = useTranslate();
  const keys = group.rows.map((row) => row.key);
  const granted = grantedCount(permissions, keys);
  const [open, setOpen] = useState(granted > 0);
  const label = translate(group.label);
  return (
    <>
      <TableRow sx={{ bgcolor: 'action.hover' }} data-testid={`matrix-group-${group.group}`}>
        <TableCell sx={{ py: 0.25 }}>
          <IconButton
            size="small"
            onClick={() => setOpen(!open)}
            aria-expanded={open}
            aria-label={label}
            data-testid={`matrix-toggle-${group.group}`}
          >
            {open ? <ExpandMoreIcon fontSize="small" /> : <ChevronRightIcon fontSize="small" />}
          </IconButton>
          <Typography component="span" variant="body2" sx={{ fontWeight: 500, cursor: 'pointer' }} onClick={() => setOpen(!open)}>
            {label}
          </Typography>
          <Typography component="span" variant="caption" color="text.secondary" sx={{ ml: 1 }}>
            {translate('roles.matrix.granted', { count: granted, total: keys.length })}
          </Typography>
        </TableCell>
        {BITS.map((bit) => {
          const state = columnState(permissions, keys, bit);
          return (
            <TableCell key={bit} align="center" sx={{ py: 0 }}>
              <Checkbox
                size="small"
                disabled={readOnly}
                checked={state === 'all'}
                indeterminate={state === 'some'}
                onChange={(_, on) => onChange((map) => setBits(map, keys, bit, on))}
                slotProps={{
                  input: {
                    'aria-label': translate('roles.matrix.column', { action: translate(`roles.matrix.${BIT_NAMES[bit]}`), group: label }),
                  },
                }}
              />
            </TableCell>
          );
        })}
      </TableRow>
      {open &&
        group.rows.map((row) => (
          <PermissionMatrixRow key={row.key} row={row} bits={bitsOf(permissions, row.key)} onChange={onChange} readOnly={readOnly} />
        ))}
    </>
  );
}
