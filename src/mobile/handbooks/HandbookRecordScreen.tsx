import { lazy, Suspense, useMemo } from 'react';
import { Box, CircularProgress, Divider, Link as MuiLink, List, ListItemButton, ListItemText, Typography } from '@mui/material';
import { Link, useParams } from 'react-router';
import { handbookSchema } from '../../../schemas/index';
import type { Field, HandbookSchema } from '../../shared/handbooks/types';
import type { Row } from '../../shared/handbooks/validation';
import { useT } from '../../web/i18n/translate';
import { useCurrentUser, useSwitches } from '../../web/stores/sessionStore';
import { parseWktGeometry, type Geometry, type LatLon } from '../../web/handbooks/inputs/wktGeometry';
import NotFoundPage from '../service/NotFoundPage';
import { NeedsConnection } from '../offline/NeedsConnection';
import { handbookRecordPath, linkTarget, recordFields, valueText } from './fieldHandbooks';
import { SavedCopyNotice } from './SavedCopyNotice';
import { useHandbookPage } from './useHandbookPage';
import { useRouteTrips } from './useRouteTrips';
import type { RecordShapes } from './RecordMap';

const RecordMap = lazy(() => import('./RecordMap'));

/** /handbooks/{type}/{id} (field-app spec 2.6): one record, read-only. */
export default function HandbookRecordScreen() {
  const { type, id } = useParams();
  const schema = handbookSchema(type);
  return schema && id ? <HandbookRecord key={`${schema.type}/${id}`} schema={schema} id={id} /> : <NotFoundPage />;
}

function shapesOf(schema: HandbookSchema, row: Row, trips: Row[]): RecordShapes {
  const points: LatLon[] = [];
  const geometries: Geometry[] = [];
  for (const field of schema.fields) {
    if (field.kind === 'point') {
      const lat = row[field.lat];
      const lon = row[field.lon];
      if (typeof lat === 'number' && typeof lon === 'number') points.push([lat, lon]);
    } else if (field.kind === 'polygon' || field.kind === 'line') {
      const geometry = parseWktGeometry(row[field.name] as string | null, field.kind);
      if (geometry) geometries.push(geometry);
    }
  }
  for (const trip of trips) {
    const geometry = parseWktGeometry(trip.trajectory as string | null, 'line');
    if (geometry) geometries.push(geometry);
  }
  return { points, geometries };
}

function FieldValue({ field, row }: { field: Field; row: Row }) {
  const t = useT();
  const user = useCurrentUser();
  const switches = useSwitches();
  if (field.kind === 'polygon' || field.kind === 'line') {
    return <Typography color="text.secondary">{row[field.name] ? t('mobile.handbooks.zone') : '—'}</Typography>;
  }
  const text = valueText(field, row, { yes: t('mobile.handbooks.yes'), no: t('mobile.handbooks.no') }) || '—';
  const to = field.kind === 'ref' ? linkTarget(field, row, user, switches) : undefined;
  return to ? (
    <MuiLink component={Link} to={to} data-testid={`link-${field.name}`}>
      {text}
    </MuiLink>
  ) : (
    <Typography sx={{ wordBreak: 'break-word' }}>{text}</Typography>
  );
}

function HandbookRecord({ schema, id }: { schema: HandbookSchema; id: string }) {
  const t = useT();
  const { page, loading, problem } = useHandbookPage({
    schema: schema.table.schema,
    table: schema.table.name,
    filters: { [schema.primaryKey]: id },
    limit: 1,
  });
  const row = page?.list[0];
  const isRoute = schema.type === 'routes';
  const routeTrips = useRouteTrips(isRoute && row ? row.route_id : undefined);
  const shapes = useMemo(() => (row ? shapesOf(schema, row, routeTrips.trips) : null), [schema, row, routeTrips.trips]);

  if (problem === 'offline') return <NeedsConnection />;
  if (loading && !row)
    return (
      <Box sx={{ display: 'flex', justifyContent: 'center', p: 4 }}>
        <CircularProgress />
      </Box>
    );
  if (!row)
    return (
      <Typography sx={{ p: 3 }} color="text.secondary" data-testid="handbook-record-missing">
        {t('mobile.handbooks.notFound')}
      </Typography>
    );
  const hasMap = shapes !== null && (shapes.points.length > 0 || shapes.geometries.length > 0);
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column' }} data-testid="handbook-record" data-type={schema.type}>
      <SavedCopyNotice savedAt={page?.savedAt} />
      <Typography variant="h6" component="h1" sx={{ px: 2, pt: 1.5 }}>
        {schema.title}
      </Typography>
      <Box component="dl" sx={{ px: 2, my: 1 }}>
        {recordFields(schema).map((field) => (
          <Box key={field.name} sx={{ py: 0.75, borderBottom: 1, borderColor: 'divider' }} data-testid={`field-${field.name}`}>
            <Typography component="dt" variant="caption" color="text.secondary">
              {field.label}
            </Typography>
            <Box component="dd" sx={{ m: 0 }}>
              <FieldValue field={field} row={row} />
            </Box>
          </Box>
        ))}
      </Box>
      {hasMap && (
        <Box sx={{ px: 2, pb: 2 }}>
          <Typography variant="subtitle2" sx={{ mb: 1 }}>
            {t('mobile.handbooks.location')}
          </Typography>
          <Box sx={{ position: 'relative', height: 260, borderRadius: 1, overflow: 'hidden', border: 1, borderColor: 'divider' }}>
            <Suspense fallback={null}>
              <RecordMap shapes={shapes} />
            </Suspense>
          </Box>
        </Box>
      )}
      {isRoute && routeTrips.readable && (
        <Box sx={{ pb: 2 }} data-testid="route-trips">
          <Divider />
          <Typography variant="subtitle2" sx={{ px: 2, pt: 1.5 }}>
            {t('mobile.handbooks.trips')}
          </Typography>
          {routeTrips.trips.length === 0 && !routeTrips.loading && (
            <Typography sx={{ px: 2, py: 1 }} color="text.secondary">
              {t('mobile.handbooks.noTrips')}
            </Typography>
          )}
          <List dense>
            {routeTrips.trips.map((trip) => (
              <ListItemButton key={String(trip.id)} component={Link} to={handbookRecordPath('trips', trip.id)} data-testid="route-trip">
                <ListItemText
                  primary={`№ ${String(trip.id)} · ${String(trip.race_type ?? '')}`}
                  secondary={String(trip.MarshVariant_id__display ?? '')}
                />
              </ListItemButton>
            ))}
          </List>
        </Box>
      )}
    </Box>
  );
}
