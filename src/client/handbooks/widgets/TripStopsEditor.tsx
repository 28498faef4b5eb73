import { useEffect, useMemo, useState, type ReactNode } from 'react';
import {
  Alert,
  Box,
  Button,
  Chip,
  CircularProgress,
  IconButton,
  MenuItem,
  Paper,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  TextField,
  Tooltip,
  Typography,
} from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import ArrowDownwardIcon from '@mui/icons-material/ArrowDownward';
import ArrowUpwardIcon from '@mui/icons-material/ArrowUpward';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutlined';
import SaveIcon from '@mui/icons-material/Save';
import { useNotify, useTranslate } from 'react-admin';
import type { TripStop } from '../../../shared/handbooks/api';
import { translateMessage } from '../../../shared/errors';
import { getJson, HttpError, postJson } from '../../../web/providers/httpClient';
import { useApiQuery, webQueries } from '../../../web/providers/queries';
import { useLocale } from '../../../web/stores/localeStore';
import { StopPicker } from './StopPicker';
import {
  addRow,
  hasChanges,
  KKP_OPTIONS,
  moveRow,
  removeRow,
  rowsFromServer,
  saveRequest,
  stopErrors,
  updateRow,
  type Kkp,
  type StopErrors,
  type StopRow,
} from './tripStopsModel';

const NO_ERRORS: StopErrors = { rows: {}, general: [] };
const kkpKey = (value: Kkp) => `handbookEditor.tripStops.kkpOptions.${value ?? 'none'}`;

/**
 * The trip's ordered stops (spec section 3: Trip.stops, composite, edited separately), below the trip
 * form: GET /api/table/tripstops?trip_id= to read, POST /api/table/tripstops to replace them all at once,
 * numbered 1..n in the order shown. Refusals come back per stop and are shown on their rows.
 */
export function TripStopsEditor({ tripId }: { tripId: number }) {
  // another trip's stops start a fresh editing (no edits, refusals or errors of the last one)
  return <TripStops key={tripId} tripId={tripId} />;
}

function TripStops({ tripId }: { tripId: number }) {
  const translate = useTranslate();
  const notify = useNotify();
  const locale = useLocale();
  const key = ['handbooks', 'tripstops', tripId];
  const stops = useApiQuery(key, (signal) => getJson<{ list: TripStop[] }>('/api/table/tripstops', { query: { trip_id: tripId }, signal }));
  const saved = useMemo(() => rowsFromServer(stops.data?.list ?? []), [stops.data]);
  // the rows as edited here; null: as saved
  const [edited, setEdited] = useState<StopRow[] | null>(null);
  const rows = edited ?? saved;
  const [saving, setSaving] = useState(false);
  const [errors, setErrors] = useState<StopErrors>(NO_ERRORS);
  const [refusal, setRefusal] = useState<string[]>([]);

  const dirty = hasChanges(rows, saved);
  // the stops are saved apart from the trip form: leaving the page (reload, close) with changes asks first
  useEffect(() => {
    if (!dirty) return undefined;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);
  // a change moves rows about: the errors of the last refusal no longer point at the right rows
  const edit = (next: StopRow[]) => {
    setEdited(next);
    setErrors(NO_ERRORS);
  };

  const revert = () => {
    setEdited(null);
    setErrors(NO_ERRORS);
    setRefusal([]);
  };

  const save = async () => {
    setSaving(true);
    try {
      const answer = await postJson<{ list: TripStop[] }>('/api/table/tripstops', saveRequest(tripId, rows));
      webQueries.setQueryData(key, answer);
      revert();
      notify('handbookEditor.tripStops.saved', { type: 'success' });
    } catch (error) {
      if (error instanceof HttpError && error.status === 400) {
        setErrors(stopErrors(error.body));
        setRefusal(error.messages.map((message) => translateMessage(message, locale)));
      }
    } finally {
      setSaving(false);
    }
  };

  return (
    <Paper variant="outlined" sx={{ mt: 2, p: 2 }} data-testid="trip-stops-editor">
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center', mb: 1 }}>
        <Typography variant="h6" component="h2">
          {translate('handbookEditor.tripStops.title')}
        </Typography>
        {dirty && (
          <Chip size="small" color="warning" label={translate('handbookEditor.tripStops.unsaved')} data-testid="trip-stops-unsaved" />
        )}
      </Stack>
      {stops.isPending && <CircularProgress size={24} aria-label={translate('app.loading')} />}
      {stops.isError && <Alert severity="error">{translate('handbookEditor.tripStops.loadFailed')}</Alert>}
      {stops.isSuccess && (
        <>
          {(refusal.length > 0 || errors.general.length > 0) && (
            <Alert severity="error" sx={{ mb: 1 }} data-testid="trip-stops-refusal">
              <div>{translate('handbookEditor.tripStops.refused')}</div>
              {[...refusal, ...errors.general].map((text, i) => (
                <div key={i}>{text}</div>
              ))}
            </Alert>
          )}
          <TableContainer>
            <Table size="small">
              <TableHead>
                <TableRow>
                  <TableCell sx={{ width: 56 }}>{translate('handbookEditor.tripStops.sequence')}</TableCell>
                  <TableCell>{translate('handbookEditor.tripStops.stop')}</TableCell>
                  <TableCell sx={{ width: 200 }}>{translate('handbookEditor.tripStops.kkp')}</TableCell>
                  <TableCell sx={{ width: 140 }} align="right">
                    {translate('handbookEditor.tripStops.actions')}
                  </TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {rows.length === 0 && (
                  <TableRow>
                    <TableCell colSpan={4}>
                      <Typography color="text.secondary">{translate('handbookEditor.tripStops.empty')}</Typography>
                    </TableCell>
                  </TableRow>
                )}
                {rows.map((row, index) => {
                  const rowErrors = errors.rows[index] ?? {};
                  return (
                    <TableRow key={row.key} data-testid="trip-stop-row">
                      <TableCell data-testid="trip-stop-sequence">
                        {index + 1}
                        {rowErrors.stop_sequence && (
                          <Typography variant="caption" color="error" component="div">
                            {rowErrors.stop_sequence}
                          </Typography>
                        )}
                      </TableCell>
                      <TableCell>
                        <StopPicker
                          value={row.stop_id === null ? null : { value: row.stop_id, label: row.stop_name }}
                          error={rowErrors.stop_id}
                          onChange={(option) =>
                            edit(updateRow(rows, index, { stop_id: option ? Number(option.value) : null, stop_name: option?.label ?? '' }))
                          }
                        />
                      </TableCell>
                      <TableCell>
                        <TextField
                          select
                          fullWidth
                          size="small"
                          variant="standard"
                          value={row.kkp ?? ''}
                          error={Boolean(rowErrors.kkp)}
                          helperText={rowErrors.kkp}
                          onChange={(event) => edit(updateRow(rows, index, { kkp: (event.target.value || null) as Kkp }))}
                          slotProps={{
                            select: { displayEmpty: true },
                            htmlInput: { 'aria-label': translate('handbookEditor.tripStops.kkp'), 'data-testid': 'trip-stop-kkp' },
                          }}
                        >
                          {KKP_OPTIONS.map((option) => (
                            <MenuItem key={option.value ?? ''} value={option.value ?? ''}>
                              {translate(kkpKey(option.value), { _: option.label })}
                            </MenuItem>
                          ))}
                        </TextField>
                      </TableCell>
                      <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                        <RowAction
                          label={translate('handbookEditor.tripStops.moveUp')}
                          disabled={index === 0}
                          onClick={() => edit(moveRow(rows, index, -1))}
                          testId="trip-stop-up"
                        >
                          <ArrowUpwardIcon fontSize="small" />
                        </RowAction>
                        <RowAction
                          label={translate('handbookEditor.tripStops.moveDown')}
                          disabled={index === rows.length - 1}
                          onClick={() => edit(moveRow(rows, index, 1))}
                          testId="trip-stop-down"
                        >
                          <ArrowDownwardIcon fontSize="small" />
                        </RowAction>
                        <RowAction
                          label={translate('handbookEditor.tripStops.remove')}
                          onClick={() => edit(removeRow(rows, index))}
                          testId="trip-stop-remove"
                        >
                          <DeleteOutlineIcon fontSize="small" />
                        </RowAction>
                      </TableCell>
                    </TableRow>
                  );
                })}
              </TableBody>
            </Table>
          </TableContainer>
          <Box sx={{ display: 'flex', gap: 1, mt: 1, flexWrap: 'wrap' }}>
            <Button size="small" startIcon={<AddIcon />} onClick={() => edit(addRow(rows))} data-testid="trip-stop-add">
              {translate('handbookEditor.tripStops.add')}
            </Button>
            <Box sx={{ flex: 1 }} />
            <Button size="small" disabled={!dirty || saving} onClick={revert} data-testid="trip-stops-revert">
              {translate('handbookEditor.tripStops.revert')}
            </Button>
            <Button
              size="small"
              variant="contained"
              startIcon={saving ? <CircularProgress size={16} color="inherit" /> : <SaveIcon />}
              disabled={!dirty || saving}
              onClick={() => void save()}
              data-testid="trip-stops-save"
            >
              {translate('handbookEditor.tripStops.save')}
            </Button>
          </Box>
        </>
      )}
    </Paper>
  );
}

function RowAction({
  label,
  disabled,
  onClick,
  testId,
  children,
}: {
  label: string;
  disabled?: boolean;
  onClick: () => void;
  testId: string;
  children: ReactNode;
}) {
  return (
    <Tooltip title={label}>
      <span>
        <IconButton size="small" aria-label={label} disabled={disabled} onClick={onClick} data-testid={testId}>
          {children}
        </IconButton>
      </span>
    </Tooltip>
  );
}
