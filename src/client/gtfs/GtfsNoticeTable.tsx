import { Box, Chip, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import type { GtfsNotice } from '../../shared/gtfs/notices';

/** Every notice of the check: its kind, its Russian name, where (file, line, field) and the value involved. */
export function GtfsNoticeTable({ notices }: { notices: GtfsNotice[] }) {
  const translate = useTranslate();
  return (
    <>
      <Typography variant="subtitle2" sx={{ mt: 2 }}>
        {translate('gtfs.notices')}
      </Typography>
      {notices.length === 0 ? (
        <Typography variant="body2" color="text.secondary" data-testid="gtfs-no-notices">
          {translate('gtfs.noNotices')}
        </Typography>
      ) : (
        <Box sx={{ maxHeight: 420, overflow: 'auto' }}>
          <Table size="small" stickyHeader data-testid="gtfs-notices">
            <TableHead>
              <TableRow>
                {(['severity', 'notice', 'file', 'line', 'field', 'value'] as const).map((c) => (
                  <TableCell key={c}>{translate(`gtfs.columns.${c}`)}</TableCell>
                ))}
              </TableRow>
            </TableHead>
            <TableBody>
              {notices.map((n, i) => (
                <TableRow key={i} data-code={n.code} data-severity={n.severity}>
                  <TableCell>
                    <Chip
                      size="small"
                      color={n.severity === 'error' ? 'error' : 'warning'}
                      variant="outlined"
                      label={translate(`gtfs.severity.${n.severity}`)}
                    />
                  </TableCell>
                  <TableCell title={n.code}>{translate(`gtfs.notice.${n.code}`, { _: n.code })}</TableCell>
                  <TableCell>{n.file ?? ''}</TableCell>
                  <TableCell>{n.line ?? ''}</TableCell>
                  <TableCell>{n.field ?? ''}</TableCell>
                  <TableCell sx={{ wordBreak: 'break-word' }}>{n.value ?? ''}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </Box>
      )}
    </>
  );
}
