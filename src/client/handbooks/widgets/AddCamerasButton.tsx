import { useState } from 'react';
import {
  Alert,
  Autocomplete,
  Button,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  TextField,
  Typography,
} from '@mui/material';
import VideocamIcon from '@mui/icons-material/Videocam';
import { useRefresh, useTranslate } from 'react-admin';
import type { AddCamerasRequest, AddCamerasResponse } from '../../../shared/handbooks/api';
import { translateMessage } from '../../../shared/errors';
import { HttpError, postJson } from '../../../web/providers/httpClient';
import { useLocale } from '../../../web/stores/localeStore';
import { suggestionText, useRefOptions, type RefOption } from '../inputs/useRefOptions';

/**
 * The camera handbook's add-vehicle widget (spec section 3, DevCamera): pick vehicles, and each of their
 * recorders gets one camera of every camera type (POST /api/widget/addcamersvehicle { veh_list }). The
 * vehicles are offered through the recorder handbook's vehicle link.
 */
export function AddCamerasButton() {
  const translate = useTranslate();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button size="small" startIcon={<VideocamIcon />} onClick={() => setOpen(true)} data-testid="add-cameras">
        {translate('handbookEditor.cameras.addToVehicles')}
      </Button>
      <Dialog open={open} onClose={() => setOpen(false)} maxWidth="sm" fullWidth>
        <DialogTitle>{translate('handbookEditor.cameras.addTitle')}</DialogTitle>
        {open && <AddCamerasForm onClose={() => setOpen(false)} />}
      </Dialog>
    </>
  );
}

function AddCamerasForm({ onClose }: { onClose: () => void }) {
  const translate = useTranslate();
  const refresh = useRefresh();
  const locale = useLocale();
  const [vehicles, setVehicles] = useState<RefOption[]>([]);
  const [listOpen, setListOpen] = useState(false);
  const [search, setSearch] = useState('');
  const { options, loading } = useRefOptions('dvr', 'vehicle_id', search, listOpen);
  const [sending, setSending] = useState(false);
  const [result, setResult] = useState<AddCamerasResponse | null>(null);
  const [refusal, setRefusal] = useState<string[]>([]);

  const add = async () => {
    setSending(true);
    setRefusal([]);
    try {
      const body: AddCamerasRequest = { veh_list: vehicles.map((vehicle) => Number(vehicle.value)) };
      setResult(await postJson<AddCamerasResponse>('/api/widget/addcamersvehicle', body));
      refresh();
    } catch (error) {
      if (error instanceof HttpError && error.status === 400) {
        setRefusal((error.messages.length ? error.messages : ['bad_request']).map((message) => translateMessage(message, locale)));
      }
    } finally {
      setSending(false);
    }
  };

  return (
    <>
      <DialogContent>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          {translate('handbookEditor.cameras.addHint')}
        </Typography>
        <Autocomplete<RefOption, true>
          multiple
          size="small"
          open={listOpen}
          onOpen={() => setListOpen(true)}
          onClose={() => setListOpen(false)}
          value={vehicles}
          options={options}
          loading={loading}
          filterOptions={(list) => list}
          filterSelectedOptions
          disableCloseOnSelect
          getOptionLabel={(option) => option.label}
          renderOption={({ key, ...props }, option) => (
            <li key={key} {...props} title={option.label}>
              {suggestionText(option.label)}
            </li>
          )}
          isOptionEqualToValue={(option, current) => option.value === current.value}
          onChange={(_event, next) => {
            setVehicles(next);
            setResult(null);
            setRefusal([]);
          }}
          onInputChange={(_event, text, reason) => {
            if (reason === 'input') setSearch(text);
            else if (reason !== 'reset') setSearch('');
          }}
          noOptionsText={translate('handbookEditor.tripStops.nothingFound')}
          loadingText={translate('app.loading')}
          disabled={sending}
          renderInput={(params) => (
            <TextField
              {...params}
              label={translate('handbookEditor.cameras.vehicles')}
              slotProps={{ ...params.slotProps, htmlInput: { ...params.slotProps?.htmlInput, 'data-testid': 'add-cameras-vehicles' } }}
            />
          )}
        />
        {result && (
          <Alert severity="success" sx={{ mt: 2 }} data-testid="add-cameras-result">
            {translate('handbookEditor.cameras.added', { vehicles: result.vehicles, recorders: result.recorders, added: result.added })}
          </Alert>
        )}
        {refusal.length > 0 && (
          <Alert severity="error" sx={{ mt: 2 }} data-testid="add-cameras-refusal">
            {refusal.map((text, i) => (
              <div key={i}>{text}</div>
            ))}
          </Alert>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{translate(result ? 'handbookEditor.cameras.close' : 'handbookEditor.cameras.cancel')}</Button>
        <Button
          variant="contained"
          disabled={vehicles.length === 0 || sending}
          startIcon={sending ? <CircularProgress size={16} color="inherit" /> : undefined}
          onClick={() => void add()}
          data-testid="add-cameras-submit"
        >
          {translate('handbookEditor.cameras.add')}
        </Button>
      </DialogActions>
    </>
  );
}
