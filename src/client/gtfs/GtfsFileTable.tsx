import { Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import type { GtfsFileCounts } from '../../shared/gtfs/notices';
import { formatNumber } from '../../shared/format';

/** Per file of the feed: rows read, written, skipped. */
export function GtfsFileTable({ files }: { files: GtfsFileCounts[] }) {
  const translate = useTranslate();
  if (files.length === 0) return null;
  return (
    <>
      <Typography variant="subtitle2" sx={{ mt: 2 }}>
        {translate('gtfs.files')}
      </Typography>
      <Table size="small" data-testid="gtfs-files" sx={{ maxWidth: 720 }}>
        <TableHead>
          <TableRow>
            {(['file', 'read', 'written', 'skipped'] as const).map((c) => (
              <TableCell key={c} align={c === 'file' ? 'left' : 'right'}>
                {translate(`gtfs.columns.${c}`)}
              </TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {files.map((f) => (
            <TableRow key={f.file} data-file={f.file}>
              <TableCell>{f.file}</TableCell>
              <TableCell align="right">{formatNumber(f.read)}</TableCell>
              <TableCell align="right">{formatNumber(f.written)}</TableCell>
              <TableCell align="right">{formatNumber(f.skipped)}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </>
  );
}
