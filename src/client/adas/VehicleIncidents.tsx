import { Fragment, useState } from 'react';
import { Alert, LinearProgress, Table, TableBody, TableCell, TableHead, TablePagination, TableRow } from '@mui/material';
import { useSearchParams } from 'react-router';
import { useRecordContext, useTranslate } from 'react-admin';
import { formatDateTime, formatNumber } from '../../shared/format';
import { INCIDENTS_DETAILING, type AdasIncidentRow } from '../../shared/reports/adas';
import { useApiQuery, webQueries } from '../../web/providers/queries';
import { readReportUrl } from '../reports/reportUrl';
import { fetchIncidents, filtersBody } from './adasApi';
import { IncidentCard } from './IncidentCard';

const PAGE = 20;

/**
 * The detailing's drill-down (a vehicle's row opened): the vehicle's incidents under the report's filters, from
 * the same call the field app makes (vehicle-incidents-detail-table); an incident opens its card.
 */
export function VehicleIncidents() {
  const translate = useTranslate();
  const row = useRecordContext<{ vehicle_id: number }>();
  const [search] = useSearchParams();
  const [page, setPage] = useState(0);
  const [open, setOpen] = useState<number | null>(null);
  const filters = readReportUrl(INCIDENTS_DETAILING, search).filters;
  const key = JSON.stringify({ ...filtersBody(filters), vehicles: row ? [row.vehicle_id] : [], skipCount: page * PAGE, recordCount: PAGE });
  const queryKey = ['adas', 'vehicle-incidents', key];
  const { data, isError: failed } = useApiQuery(queryKey, (signal) => fetchIncidents(JSON.parse(key), signal), { keepPrevious: true });
  if (failed) return <Alert severity="error">{translate('reports.adas.incident.failed')}</Alert>;
  if (!data) return <LinearProgress />;
  const replace = (next: AdasIncidentRow) =>
    webQueries.setQueryData(queryKey, { ...data, list: data.list.map((item) => (item.id === next.id ? next : item)) });
  const label = (key: string) => translate(`reports.adas.incident.${key}`);
  return (
    <>
      <Table size="small" data-testid="vehicle-incidents">
        <TableHead>
          <TableRow>
            {['tm', 'type', 'grade', 'speed', 'route', 'review'].map((name) => (
              <TableCell key={name}>{label(name)}</TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {data.list.map((incident) => (
            <Fragment key={incident.id}>
              <TableRow
                hover
                sx={{ cursor: 'pointer' }}
                onClick={() => setOpen(open === incident.id ? null : incident.id)}
                data-testid="vehicle-incident"
              >
                <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatDateTime(incident.tm)}</TableCell>
                <TableCell>{incident.incident_name}</TableCell>
                <TableCell>{incident.grade}</TableCell>
                <TableCell>{incident.speed === null ? '' : formatNumber(incident.speed, 1)}</TableCell>
                <TableCell>{incident.route_name ?? ''}</TableCell>
                <TableCell>{incident.review ? translate(`reports.adas.reviews.${incident.review}`) : ''}</TableCell>
              </TableRow>
              {open === incident.id && (
                <TableRow>
                  <TableCell colSpan={6}>
                    <IncidentCard incident={incident} onReviewed={replace} />
                  </TableCell>
                </TableRow>
              )}
            </Fragment>
          ))}
        </TableBody>
      </Table>
      {data.count > PAGE && (
        <TablePagination
          component="div"
          count={data.count}
          page={page}
          rowsPerPage={PAGE}
          rowsPerPageOptions={[]}
          onPageChange={(_, next) => setPage(next)}
          labelDisplayedRows={({ from, to, count }) => translate('reports.rows', { from, to, count })}
        />
      )}
    </>
  );
}
