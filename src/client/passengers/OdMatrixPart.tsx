import { Box, Table, TableBody, TableCell, TableHead, TableRow, Tooltip, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import { formatNumber } from '../../shared/format';
import { OD_MATRIX_SIDE, odMatrixSides, odPairs } from '../../shared/reports/odMatrix';
import type { ReportPartProps } from '../reports/reportExtensions';

/** Heat of a cell: white to the product's blue by its share of the largest cell. */
const heat = (share: number) => `rgba(0, 58, 114, ${(0.08 + 0.92 * share).toFixed(3)})`;

/**
 * /passengers/correspondence's matrix heat grid: the busiest origins as rows and destinations as columns
 * (stops, districts, or the routes of transfers), each cell shaded by its journeys. The server sends the cells
 * (odMatrixCells), not every pair.
 */
export default function OdMatrixPart({ rows }: ReportPartProps) {
  const translate = useTranslate();
  const cells = odPairs(rows);
  if (!cells.length) return null;
  const { origins, destinations } = odMatrixSides(cells);
  const cell = new Map(cells.map((p) => [`${p.origin}\u0000${p.destination}`, p.journeys]));
  const max = Math.max(1, ...cells.map((c) => c.journeys));
  return (
    <Box sx={{ my: 2, overflowX: 'auto' }} data-testid="od-matrix">
      <Typography variant="subtitle1">{translate('reports.passengers.matrixTitle', { n: OD_MATRIX_SIDE })}</Typography>
      <Table size="small" sx={{ '& td, & th': { px: 0.5, fontSize: 12 } }}>
        <TableHead>
          <TableRow>
            <TableCell>{translate('reports.passengers.matrixCorner')}</TableCell>
            {destinations.map((d) => (
              <TableCell key={d} title={d} sx={{ verticalAlign: 'bottom', px: 0.25 }} data-testid="od-destination">
                {/* written upwards, one line each: long stop names neither overlap nor widen the columns */}
                <Box
                  sx={{
                    writingMode: 'vertical-rl',
                    transform: 'rotate(180deg)',
                    whiteSpace: 'nowrap',
                    maxHeight: 160,
                    overflow: 'hidden',
                    textOverflow: 'ellipsis',
                    mx: 'auto',
                  }}
                >
                  {d}
                </Box>
              </TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {origins.map((o) => (
            <TableRow key={o}>
              <TableCell component="th" sx={{ whiteSpace: 'nowrap' }}>
                {o}
              </TableCell>
              {destinations.map((d) => {
                const n = cell.get(`${o}\u0000${d}`) ?? 0;
                return (
                  <Tooltip key={d} title={`${o} → ${d}: ${formatNumber(n)}`}>
                    <TableCell
                      align="center"
                      data-testid="od-cell"
                      sx={{ bgcolor: n ? heat(n / max) : undefined, color: n / max > 0.5 ? '#fff' : undefined }}
                    >
                      {n ? formatNumber(n) : ''}
                    </TableCell>
                  </Tooltip>
                );
              })}
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Box>
  );
}
