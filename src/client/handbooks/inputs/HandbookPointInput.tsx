import MapIcon from '@mui/icons-material/Map';
import { IconButton, InputAdornment, TextField, Tooltip } from '@mui/material';
import { lazy, Suspense, useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { useInput, useTranslate, ValidationError } from 'react-admin';
import { MSG } from '../../../shared/handbooks/messages';
import type { PointField } from '../../../shared/handbooks/types';
import { formatPointText, parsePointText, pointOf, type PointText } from './pointText';
import type { PickedPoint } from './PointPickerDialog';

/** Leaflet is loaded with the picker, not with every handbook form. */
const PointPickerDialog = lazy(() => import('./PointPickerDialog'));

/** The two columns keep what the form holds: no '' ⇄ null conversion. */
const keep = (value: unknown) => value;

/** The message of a text that is not a usable point, or undefined. */
function textProblem(parsed: PointText, required: boolean, translate: (key: string) => string): string | undefined {
  if (parsed.kind === 'empty') return required ? MSG.required : undefined;
  if (parsed.kind === 'point') return undefined;
  if (parsed.error === 'latitude') return MSG.latitude;
  if (parsed.error === 'longitude') return MSG.longitude;
  return translate('handbookEditor.map.pointFormat');
}

/**
 * A lat/lon pair of two columns (park dp_lat/dp_lon, department td_lat/td_lon, stops) edited as one text
 * input "lat, lon" with a map picker. Typed or pasted text writes both columns at once; a text that is not a
 * point writes what it can (an out-of-range number, or the raw text) so that the form's validation, which is
 * the server's, refuses to save it, while the input shows the precise reason.
 */
export function HandbookPointInput({ field }: { field: PointField }) {
  const translate = useTranslate();
  const lat = useInput({ source: field.lat, format: keep, parse: keep });
  const lon = useInput({ source: field.lon, format: keep, parse: keep });
  const latValue: unknown = lat.field.value;
  const lonValue: unknown = lon.field.value;
  // react-admin's handlers are stable across renders (the field object around them is not)
  const { onChange: setLat, onBlur: blurLat, ref: refLat } = lat.field;
  const { onChange: setLon, onBlur: blurLon, ref: refLon } = lon.field;
  const [text, setText] = useState(() => formatPointText(latValue, lonValue));
  const [blurred, setBlurred] = useState(false);
  const [picking, setPicking] = useState(false);
  /** What this input last wrote: a change to anything else came from outside (record loaded, form reset). */
  const written = useRef<[unknown, unknown]>([latValue, lonValue]);

  useEffect(() => {
    const [a, b] = written.current;
    if (Object.is(a, latValue) && Object.is(b, lonValue)) return;
    written.current = [latValue, lonValue];
    setText(formatPointText(latValue, lonValue));
    setBlurred(false);
  }, [latValue, lonValue]);

  const write = useCallback(
    (a: unknown, b: unknown) => {
      written.current = [a, b];
      setLat(a);
      setLon(b);
    },
    [setLat, setLon],
  );

  const onText = (value: string) => {
    setText(value);
    const parsed = parsePointText(value);
    if (parsed.kind === 'point') write(parsed.lat, parsed.lon);
    else if (parsed.kind === 'empty') write(null, null);
    else {
      // keep the form invalid: numbers out of range as they are, anything else as text in the latitude
      const parts = value
        .split(/[;,\s]+/)
        .filter(Boolean)
        .map((part) => Number(part.replace(',', '.')));
      const numbers = parts.length === 2 && parts.every(Number.isFinite);
      write(numbers ? parts[0] : value, numbers ? parts[1] : null);
    }
  };

  const onBlur = () => {
    setBlurred(true);
    blurLat();
    blurLon();
  };

  const onPick = (point: PickedPoint) => {
    setPicking(false);
    setText(formatPointText(point.lat, point.lon));
    write(point.lat, point.lon);
    blurLat();
    blurLon();
  };

  const submitted = lat.formState.isSubmitted;
  const problem = blurred || submitted ? textProblem(parsePointText(text), field.required === true, translate) : undefined;
  const formError = lat.fieldState.error?.message ?? lon.fieldState.error?.message;
  let helper: ReactNode = field.help ?? ' ';
  if (problem) helper = problem;
  else if (formError) helper = <ValidationError error={formError} />;

  const ref = useCallback(
    (element: HTMLInputElement | null) => {
      refLat(element);
      refLon(element);
    },
    [refLat, refLon],
  );

  return (
    <>
      <TextField
        id={lat.id}
        name={field.name}
        label={field.label}
        required={field.required}
        value={text}
        onChange={(event) => onText(event.target.value)}
        onBlur={onBlur}
        inputRef={ref}
        error={Boolean(problem ?? formError)}
        helperText={helper}
        placeholder={translate('handbookEditor.map.pointPlaceholder')}
        fullWidth
        sx={{ maxWidth: 360 }}
        className="ra-input"
        slotProps={{
          htmlInput: { 'data-testid': `point-input-${field.name}`, autoComplete: 'off', spellCheck: false },
          input: {
            endAdornment: (
              <InputAdornment position="end">
                <Tooltip title={translate('handbookEditor.map.pick')}>
                  <IconButton aria-label={translate('handbookEditor.map.pick')} onClick={() => setPicking(true)} edge="end" size="small">
                    <MapIcon fontSize="small" />
                  </IconButton>
                </Tooltip>
              </InputAdornment>
            ),
          },
        }}
      />
      {picking && (
        <Suspense fallback={null}>
          <PointPickerDialog label={field.label} initial={pointOf(latValue, lonValue)} onApply={onPick} onClose={() => setPicking(false)} />
        </Suspense>
      )}
    </>
  );
}
