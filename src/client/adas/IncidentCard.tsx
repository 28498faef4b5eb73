import { lazy, Suspense, useState } from 'react';
import { Box, Button, LinearProgress, Stack, TextField, ToggleButton, ToggleButtonGroup, Typography } from '@mui/material';
import { useNotify, useTranslate } from 'react-admin';
import { Link } from 'react-router';
import VideocamIcon from '@mui/icons-material/Videocam';
import { formatDateTime, formatLatLon, formatNumber } from '../../shared/format';
import { REVIEW_COMMENT_MAX, type AdasIncidentRow, type IncidentReview } from '../../shared/reports/adas';
import { useRights } from '../../web/components/useRights';
import { useApiQuery } from '../../web/providers/queries';
import { DETAILING_PATH, fetchIncident, saveReview } from './adasApi';

const IncidentMap = lazy(() => import('./IncidentMap'));
const VIDEO_AROUND_MS = 60_000;

/** The archive request form prefilled with the incident's vehicle and the minute either side of it. */
function videoRequestLink(incident: AdasIncidentRow & { vehicle_id: number }): string {
  const at = Date.parse(incident.tm);
  const query = new URLSearchParams({
    vehicle: String(incident.vehicle_id),
    from: new Date(at - VIDEO_AROUND_MS).toISOString(),
    to: new Date(at + VIDEO_AROUND_MS).toISOString(),
  });
  return `/video/requests/create?${query}`;
}

const positioned = (incident: AdasIncidentRow): incident is AdasIncidentRow & { lat: number; lon: number } =>
  incident.lat !== null && incident.lon !== null;

/** One line of the card: a label and its value, left out when there is none. */
function Field({ label, value }: { label: string; value: string | number | null | undefined }) {
  if (value === null || value === undefined || value === '') return null;
  return (
    <Typography variant="body2">
      <Box component="span" sx={{ color: 'text.secondary' }}>
        {label}:{' '}
      </Box>
      {value}
    </Typography>
  );
}

/**
 * One incident: its place on a small map, what the unit reported and what it was matched to, and its review
 * (confirmed or false alarm, with a comment) for those with the update right on the detailing, and «Request
 * video ±1 min» (the archive request form prefilled) for those who may create archive requests, when the vehicle has a
 * recorder with cameras.
 */
export function IncidentCard({ incident, onReviewed }: { incident: AdasIncidentRow; onReviewed: (next: AdasIncidentRow) => void }) {
  const translate = useTranslate();
  const notify = useNotify();
  const { update } = useRights(DETAILING_PATH);
  const mayRequestVideo = useRights('/video/requests/create').create;
  const [review, setReview] = useState<IncidentReview | null>(incident.review);
  const [comment, setComment] = useState(incident.review_comment ?? '');
  const [saving, setSaving] = useState(false);
  // the trip's line comes with the single incident only
  const single = useApiQuery(['adas', 'incident', incident.id], (signal) => fetchIncident(incident.id, signal), {
    enabled: incident.trip_line === undefined && incident.trip_id !== null,
  });
  const tripLine = incident.trip_line !== undefined ? incident.trip_line : single.isError ? null : single.data?.trip_line;
  const label = (key: string) => translate(`reports.adas.incident.${key}`);
  const save = async () => {
    setSaving(true);
    try {
      onReviewed(await saveReview(incident.id, review, comment));
      notify('reports.adas.incident.saved', { type: 'info' });
    } catch {
      // the http client has shown the error
    } finally {
      setSaving(false);
    }
  };
  return (
    <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} sx={{ py: 1 }} data-testid="incident-card">
      {positioned(incident) && (
        <Suspense fallback={<LinearProgress sx={{ flex: 1 }} />}>
          <IncidentMap incident={incident} tripLine={tripLine} />
        </Suspense>
      )}
      <Box sx={{ flex: 1, minWidth: 260 }}>
        <Typography variant="subtitle2" sx={{ color: incident.incident_color ?? undefined }}>
          {incident.incident_name}
        </Typography>
        <Field label={label('tm')} value={formatDateTime(incident.tm)} />
        <Field label={label('vehicle')} value={[incident.depot_number, incident.state_number].filter(Boolean).join(' ')} />
        <Field label={label('grade')} value={incident.grade} />
        <Field label={label('speed')} value={incident.speed === null ? null : formatNumber(incident.speed, 1)} />
        <Field label={label('route')} value={incident.route_name} />
        <Field label={label('race')} value={incident.race_num} />
        <Field label={label('driver')} value={incident.driver_name} />
        <Field label={label('place')} value={positioned(incident) ? formatLatLon(incident.lat, incident.lon) : null} />
        <Field label={label('evidence')} value={incident.evidence?.join(', ')} />
        <Field
          label={label('reviewedBy')}
          value={incident.reviewed_by && incident.reviewed_at ? `${incident.reviewed_by}, ${formatDateTime(incident.reviewed_at)}` : null}
        />
        {mayRequestVideo && incident.vehicle_id !== null && incident.has_recorder && (
          <Button
            component={Link}
            to={videoRequestLink({ ...incident, vehicle_id: incident.vehicle_id })}
            size="small"
            startIcon={<VideocamIcon />}
            sx={{ mt: 1 }}
            data-testid="incident-request-video"
          >
            {label('requestVideo')}
          </Button>
        )}
      </Box>
      <Box sx={{ flex: 1, minWidth: 260 }}>
        <Typography variant="subtitle2">{label('review')}</Typography>
        <ToggleButtonGroup
          exclusive
          size="small"
          value={review}
          disabled={!update || saving}
          sx={{ my: 1 }}
          onChange={(_, next: IncidentReview | null) => setReview(next)}
        >
          <ToggleButton value="confirmed" data-testid="review-confirmed">
            {translate('reports.adas.reviews.confirmed')}
          </ToggleButton>
          <ToggleButton value="false_alarm" data-testid="review-false-alarm">
            {translate('reports.adas.reviews.false_alarm')}
          </ToggleButton>
        </ToggleButtonGroup>
        <TextField
          label={label('comment')}
          value={comment}
          onChange={(event) => setComment(event.target.value)}
          disabled={!update || saving}
          fullWidth
          multiline
          minRows={2}
          size="small"
          slotProps={{ htmlInput: { maxLength: REVIEW_COMMENT_MAX, 'data-testid': 'review-comment' } }}
        />
        {update && (
          <Button variant="contained" size="small" sx={{ mt: 1 }} disabled={saving} onClick={() => void save()} data-testid="review-save">
            {label('save')}
          </Button>
        )}
      </Box>
    </Stack>
  );
}
