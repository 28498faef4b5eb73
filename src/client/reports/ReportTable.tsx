import { Fragment, Suspense, useState } from 'react';
import {
  LinearProgress,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableFooter,
  TableHead,
  TablePagination,
  TableRow,
  TableSortLabel,
} from '@mui/material';
import { RecordContextProvider, useTranslate } from 'react-admin';
import { cellText } from '../../shared/reports/cells';
import type { ReportDeclaration } from '../../shared/reports/types';
import type { ReportRows } from '../../web/providers/resources/reports';
import { columnLabel, isNumeric, ReportCell } from './reportCells';
import { reportExtensions } from './reportExtensions';
import type { ReportUrlState } from './reportUrl';

interface ReportTableProps {
  report: ReportDeclaration;
  rows: ReportRows;
  state: ReportUrlState;
  onSort: (field: string) => void;
  onPage: (page: number) => void;
  /** A row action changed something: the list loads again. */
  onChanged?: () => void;
}

/** The report's rows: sorted and paged by the server (the URL holds both), the totals row under them. */
export function ReportTable({ report, rows, state, onSort, onPage, onChanged }: ReportTableProps) {
  const translate = useTranslate();
  const [open, setOpen] = useState<string | number | null>(null);
  const columns = report.columns.filter((c) => !c.exportOnly);
  const expand = report.expand ? reportExtensions.expands[report.expand] : undefined;
  const totals = rows.meta.totals;
  const Actions = report.rowActions ? reportExtensions.rowActions[report.rowActions] : undefined;
  const span = columns.length + (Actions ? 1 : 0);
  return (
    <>
      <TableContainer>
        <Table size="small" data-testid="report-table">
          <TableHead>
            <TableRow>
              {Actions && <TableCell />}
              {columns.map((column) => (
                <TableCell
                  key={column.name}
                  align={isNumeric(column) ? 'right' : 'left'}
                  sortDirection={state.sort.field === column.name ? (state.sort.order === 'ASC' ? 'asc' : 'desc') : false}
                >
                  {column.sortable ? (
                    <TableSortLabel
                      active={state.sort.field === column.name}
                      direction={state.sort.field === column.name && state.sort.order === 'ASC' ? 'asc' : 'desc'}
                      onClick={() => onSort(column.name)}
                    >
                      {translate(columnLabel(report.labels, column))}
                    </TableSortLabel>
                  ) : (
                    translate(columnLabel(report.labels, column))
                  )}
                </TableCell>
              ))}
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.data.map((row) => {
              const opens = expand?.opens(row) ?? false;
              const View = expand?.view;
              return (
                <Fragment key={row.id}>
                  <TableRow
                    hover={opens}
                    onClick={opens ? () => setOpen(open === row.id ? null : row.id) : undefined}
                    sx={opens ? { cursor: 'pointer' } : undefined}
                  >
                    {/* Actions come first: a wide table scrolls, and they must not scroll out of sight. */}
                    {Actions && (
                      <TableCell padding="none" sx={{ whiteSpace: 'nowrap', pl: 1 }}>
                        <Actions report={report} row={row} onChanged={onChanged ?? (() => undefined)} />
                      </TableCell>
                    )}
                    {columns.map((column) => (
                      <TableCell key={column.name} align={isNumeric(column) ? 'right' : 'left'}>
                        <ReportCell column={column} row={row} />
                      </TableCell>
                    ))}
                  </TableRow>
                  {View && open === row.id && (
                    <TableRow>
                      <TableCell colSpan={span}>
                        <RecordContextProvider value={row}>
                          <Suspense fallback={<LinearProgress />}>
                            <View />
                          </Suspense>
                        </RecordContextProvider>
                      </TableCell>
                    </TableRow>
                  )}
                </Fragment>
              );
            })}
          </TableBody>
          {totals && (
            <TableFooter>
              <TableRow data-testid="report-totals">
                {Actions && <TableCell />}
                {columns.map((column, i) => (
                  <TableCell key={column.name} align={isNumeric(column) ? 'right' : 'left'} sx={{ fontWeight: 600, color: 'text.primary' }}>
                    {column.name in totals ? cellText(column, totals[column.name]) : i === 0 ? translate('reports.totals') : ''}
                  </TableCell>
                ))}
              </TableRow>
            </TableFooter>
          )}
        </Table>
      </TableContainer>
      <TablePagination
        component="div"
        count={rows.total}
        page={state.page - 1}
        rowsPerPage={report.pageSize}
        rowsPerPageOptions={[]}
        onPageChange={(_, page) => onPage(page + 1)}
        labelDisplayedRows={({ from, to, count }) =>
          translate(rows.meta.countExact === false ? 'reports.rowsMore' : 'reports.rows', { from, to, count })
        }
      />
    </>
  );
}
