import { memo } from 'react';
import { Box, Checkbox, TableCell, TableRow } from '@mui/material';
import { useTranslate } from 'react-admin';
import { BITS, BIT_NAMES, setBits, type MatrixRow, type PermissionsChange } from './permissionMatrix';

interface PermissionMatrixRowProps {
  row: MatrixRow;
  /** The row's mask: the row re-renders only when it changes. */
  bits: number;
  onChange: PermissionsChange;
  readOnly: boolean;
}

/** One permission key: its label and key, and a checkbox per bit. */
export const PermissionMatrixRow = memo(function PermissionMatrixRow({ row, bits, onChange, readOnly }: PermissionMatrixRowProps) {
  const translate = useTranslate();
  const label = translate(row.label, { _: row.label });
  return (
    <TableRow hover data-testid={`matrix-row-${row.key}`}>
      <TableCell sx={{ pl: row.nested ? 9 : 6, py: 0 }}>
        <Box component="span" sx={{ mr: 1 }}>
          {label}
        </Box>
        {label !== row.key && (
          <Box component="span" sx={{ color: 'text.secondary', fontFamily: 'monospace', fontSize: '0.75rem' }}>
            {row.key}
          </Box>
        )}
      </TableCell>
      {BITS.map((bit) => (
        <TableCell key={bit} align="center" sx={{ py: 0 }}>
          <Checkbox
            size="small"
            disabled={readOnly}
            checked={(bits & bit) !== 0}
            onChange={(_, on) => onChange((map) => setBits(map, [row.key], bit, on))}
            slotProps={{
              input: {
                'aria-label': `${label}: ${translate(`roles.matrix.${BIT_NAMES[bit]}`)}`,
                'data-testid': `perm-${row.key}-${BIT_NAMES[bit]}`,
              } as Record<string, string>,
            }}
          />
        </TableCell>
      ))}
    </TableRow>
  );
});
