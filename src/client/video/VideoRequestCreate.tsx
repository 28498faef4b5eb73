import { useEffect, useMemo, useState } from 'react';
import {
  Autocomplete,
  Box,
  Button,
  Card,
  CardContent,
  Checkbox,
  FormControlLabel,
  FormGroup,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { Form, Title, useTranslate } from 'react-admin';
import { useController, useFormContext, useWatch } from 'react-hook-form';
import { useNavigate, useSearchParams } from 'react-router';
import { DatePickerInput } from '../components/DatePickerInput';
import { useDebouncedValue } from '../../web/components/useDebouncedValue';
import { useApiQuery } from '../../web/providers/queries';
import { showMessage } from '../../web/stores/messageStore';
import { useCurrentUser } from '../../web/stores/sessionStore';
import { useVideoVehicle, VideoVehicleHeading } from '../../web/video/VideoVehicleHeading';
import type { VideoVehicleRow } from '../../shared/video/api';
import { createArchiveRequest, searchVehicles } from '../../web/video/videoApi';

const MIN = 60_000;
const SEARCH_DELAY_MS = 300;
const NONE: VideoVehicleRow[] = [];

interface RequestForm {
  vehicleId: number | null;
  cameras: number[];
  from: string | null;
  to: string | null;
}

/** The vehicle, chosen by garage number or plate among vehicles with a recorder. */
function VehicleChooser() {
  const translate = useTranslate();
  const { field } = useController<RequestForm, 'vehicleId'>({ name: 'vehicleId', rules: { required: 'ra.validation.required' } });
  const [text, setText] = useState('');
  // asked once the typing pauses; the last vehicles stay while the next are read
  const settled = useDebouncedValue(text, SEARCH_DELAY_MS);
  const { data } = useApiQuery(['video', 'vehicle-search', settled], (signal) => searchVehicles({ q: settled || undefined }, signal), {
    keepPrevious: true,
  });
  const options = data?.list ?? NONE;
  const label = (v: VideoVehicleRow) => `${v.depotNumber ?? v.vehicleId} · ${v.stateNumber ?? ''}`;
  return (
    <Autocomplete
      options={options}
      value={options.find((v) => v.vehicleId === field.value) ?? null}
      getOptionLabel={label}
      isOptionEqualToValue={(a, b) => a.vehicleId === b.vehicleId}
      filterOptions={(all) => all}
      onInputChange={(_, value, reason) => reason === 'input' && setText(value)}
      onChange={(_, chosen) => field.onChange(chosen?.vehicleId ?? null)}
      renderInput={(params) => (
        <TextField
          {...params}
          label={translate('video.create.vehicle')}
          size="small"
          required
          slotProps={{ ...params.slotProps, htmlInput: { ...params.slotProps.htmlInput, 'data-testid': 'video-create-vehicle' } }}
        />
      )}
      sx={{ maxWidth: 420 }}
    />
  );
}

/** The recorder's cameras as check boxes; all of them are ticked when a vehicle is chosen. */
function CameraChooser({ cameras }: { cameras: { index: number; title: string }[] }) {
  const translate = useTranslate();
  const { field, fieldState } = useController<RequestForm, 'cameras'>({
    name: 'cameras',
    rules: { validate: (value) => (value.length ? true : 'video.create.camerasRequired') },
  });
  const chosen = new Set(field.value);
  return (
    <Box>
      <Typography variant="subtitle2">{translate('video.create.cameras')}</Typography>
      <FormGroup row>
        {cameras.map((camera) => (
          <FormControlLabel
            key={camera.index}
            label={`${camera.index}. ${camera.title}`}
            control={
              <Checkbox
                checked={chosen.has(camera.index)}
                slotProps={{ input: { 'aria-label': `camera-${camera.index}` } }}
                onChange={(event) =>
                  field.onChange(
                    event.target.checked
                      ? [...field.value, camera.index].sort((a, b) => a - b)
                      : field.value.filter((c) => c !== camera.index),
                  )
                }
              />
            }
          />
        ))}
      </FormGroup>
      {fieldState.error && (
        <Typography color="error" variant="caption">
          {translate(fieldState.error.message ?? '')}
        </Typography>
      )}
    </Box>
  );
}

/** Quick periods: the last 5, 15 or 60 minutes, or ± minutes around a chosen time. */
function QuickPeriods() {
  const translate = useTranslate();
  const { setValue } = useFormContext<RequestForm>();
  const [around, setAround] = useState(2);
  const from = useWatch<RequestForm, 'from'>({ name: 'from' });
  const set = (start: number, end: number) => {
    setValue('from', new Date(start).toISOString(), { shouldDirty: true });
    setValue('to', new Date(end).toISOString(), { shouldDirty: true });
  };
  const last = (minutes: number) => () => {
    const now = Math.floor(Date.now() / MIN) * MIN;
    set(now - minutes * MIN, now);
  };
  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
      <Button size="small" variant="outlined" onClick={last(5)} data-testid="video-last5">
        {translate('video.create.last5')}
      </Button>
      <Button size="small" variant="outlined" onClick={last(15)}>
        {translate('video.create.last15')}
      </Button>
      <Button size="small" variant="outlined" onClick={last(60)}>
        {translate('video.create.last60')}
      </Button>
      <TextField
        size="small"
        type="number"
        label={translate('video.create.aroundMinutes')}
        value={around}
        sx={{ width: 110 }}
        onChange={(event) => setAround(Math.max(1, Math.min(60, Number(event.target.value) || 1)))}
      />
      <Button
        size="small"
        variant="outlined"
        disabled={!from}
        onClick={() => {
          const centre = Date.parse(from!);
          set(centre - around * MIN, centre + around * MIN);
        }}
      >
        {translate('video.create.around')}
      </Button>
    </Stack>
  );
}

function VehicleCameras() {
  const vehicleId = useWatch<RequestForm, 'vehicleId'>({ name: 'vehicleId' });
  const vehicle = useVideoVehicle(vehicleId ?? undefined);
  const { setValue, getValues } = useFormContext<RequestForm>();
  useEffect(() => {
    if (!vehicle) return;
    const kept = getValues('cameras').filter((c) => vehicle.cameras.some((camera) => camera.index === c));
    setValue('cameras', kept.length ? kept : vehicle.cameras.map((c) => c.index));
  }, [vehicle, getValues, setValue]);
  if (!vehicle) return null;
  return (
    <>
      <VideoVehicleHeading vehicle={vehicle} />
      <CameraChooser cameras={vehicle.cameras} />
    </>
  );
}

/**
 * /video/requests/create (SCREENS.md, "Video"): vehicle, cameras, period (quick ranges or "around" a time).
 * The server refuses at once a period the recorder does not hold (video_no_data) or a vehicle without a
 * recorder (dvr_or_camera_not_found), translated in the message bar. A link may prefill it
 * (?vehicle=&from=&to=&camera=, as the ADAS incident's "request video ±1 min").
 */
export default function VideoRequestCreate() {
  const translate = useTranslate();
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const maxMinutes = useCurrentUser()?.settings.video.maxRequestMinutes ?? 30;
  const defaults = useMemo<RequestForm>(() => {
    const now = Math.floor(Date.now() / MIN) * MIN;
    const camera = Number(search.get('camera'));
    return {
      vehicleId: Number(search.get('vehicle')) || null,
      cameras: camera ? [camera] : [],
      from: search.get('from') ?? new Date(now - 5 * MIN).toISOString(),
      to: search.get('to') ?? new Date(now).toISOString(),
    };
  }, [search]);
  const submit = async (values: RequestForm) => {
    const { id } = await createArchiveRequest({
      vehicleId: values.vehicleId!,
      cameras: values.cameras,
      from: values.from!,
      to: values.to!,
    }).catch(() => ({ id: 0 }));
    if (!id) return;
    showMessage(translate('video.create.created', { id }), 'success');
    navigate('/video/myrequests');
  };
  const checkPeriod = (_value: unknown, all: RequestForm) => {
    if (!all.from || !all.to) return undefined;
    const minutes = (Date.parse(all.to) - Date.parse(all.from)) / MIN;
    if (!(minutes > 0)) return 'ra.validation.required';
    return minutes > maxMinutes ? translate('video.create.maxMinutes', { minutes: maxMinutes }) : undefined;
  };
  return (
    <Box sx={{ p: 2 }}>
      <Title title="video.create.title" />
      <Card variant="outlined" sx={{ maxWidth: 760 }}>
        <CardContent>
          <Form defaultValues={defaults} onSubmit={(values: Record<string, unknown>) => submit(values as unknown as RequestForm)}>
            <Stack spacing={2}>
              <Typography variant="h6">{translate('video.create.title')}</Typography>
              <VehicleChooser />
              <VehicleCameras />
              <Typography variant="subtitle2">{translate('video.create.period')}</Typography>
              <QuickPeriods />
              <Stack direction="row" spacing={2}>
                <DatePickerInput source="from" kind="datetime" label="video.create.from" isRequired />
                <DatePickerInput source="to" kind="datetime" label="video.create.to" isRequired validate={checkPeriod} />
              </Stack>
              <Box>
                <Button type="submit" variant="contained" data-testid="video-create-submit">
                  {translate('video.create.submit')}
                </Button>
              </Box>
            </Stack>
          </Form>
        </CardContent>
      </Card>
    </Box>
  );
}
