import { Paper, Table, TableBody, TableCell, TableContainer, TableHead, TableRow, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import type { ImportRowError } from '../../shared/handbooks/api';

/** The per-row errors of a refused import: row as in the file (header = 1), column, reason; scrollable. */
export function ImportErrorTable({ errors, moreErrors }: { errors: readonly ImportRowError[]; moreErrors: number }) {
  const translate = useTranslate();
  return (
    <>
      <TableContainer component={Paper} variant="outlined" sx={{ mt: 1, maxHeight: 300 }} data-testid="handbook-import-errors">
        <Table size="small" stickyHeader>
          <TableHead>
            <TableRow>
              <TableCell sx={{ width: 80 }}>{translate('handbookEditor.import.columns.row')}</TableCell>
              <TableCell sx={{ width: 180 }}>{translate('handbookEditor.import.columns.column')}</TableCell>
              <TableCell>{translate('handbookEditor.import.columns.message')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {errors.map((error, i) => (
              <TableRow key={i} data-testid="handbook-import-error">
                <TableCell>{error.row}</TableCell>
                <TableCell>
                  {error.column || (
                    <Typography variant="body2" color="text.secondary" component="span">
                      {translate('handbookEditor.import.wholeRow')}
                    </Typography>
                  )}
                </TableCell>
                <TableCell>{error.message}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
      {moreErrors > 0 && (
        <Typography variant="body2" sx={{ mt: 1 }} data-testid="handbook-import-more-errors">
          {translate('handbookEditor.import.moreErrors', { count: moreErrors })}
        </Typography>
      )}
    </>
  );
}
