import EditLocationAltIcon from '@mui/icons-material/EditLocationAlt';
import { Box, Button, Collapse, FormControl, FormHelperText, FormLabel, TextField, Typography } from '@mui/material';
import { lazy, Suspense, useMemo, useState, type ReactNode } from 'react';
import { useInput, useTranslate, ValidationError } from 'react-admin';
import { MSG } from '../../../shared/handbooks/messages';
import type { LineField, PolygonField } from '../../../shared/handbooks/types';
import { parseWktGeometry } from '../../../web/handbooks/inputs/wktGeometry';

/** Leaflet, and geoman for the editor, load with the maps, not with every handbook form. */
const GeometryPreviewMap = lazy(() => import('./GeometryPreviewMap'));
const GeometryEditorDialog = lazy(() => import('./GeometryEditorDialog'));

/**
 * A geometry column (district and control region borders, trip trajectories) as WKT text in the form: a
 * small preview map, a large map editor with leaflet-geoman, and the WKT itself for people pasting from
 * GIS tools. A multipolygon is shown and edited part by part; a newly drawn shape replaces the value.
 */
export function HandbookGeometryInput({ field }: { field: PolygonField | LineField }) {
  const translate = useTranslate();
  const { id, field: input, fieldState, formState } = useInput({ source: field.name });
  const text = typeof input.value === 'string' ? input.value : '';
  const geometry = useMemo(() => parseWktGeometry(text, field.kind), [text, field.kind]);
  const [editing, setEditing] = useState(false);
  const [showText, setShowText] = useState(false);
  const [touched, setTouched] = useState(false);

  const empty = text.trim() === '';
  const invalid = !empty && !geometry;
  const checked = touched || formState.isSubmitted;
  let problem: string | undefined;
  if (invalid && checked) problem = field.kind === 'polygon' ? MSG.polygon : MSG.line;
  else if (empty && field.required && checked) problem = MSG.required;
  const formError = fieldState.error?.message;
  let helper: ReactNode = field.help;
  if (problem) helper = problem;
  else if (formError) helper = <ValidationError error={formError} />;

  const parts = geometry ? (geometry.kind === 'polygon' ? geometry.polygons.length : geometry.lines.length) : 0;

  const apply = (wkt: string | null) => {
    setEditing(false);
    setTouched(true);
    input.onChange(wkt ?? '');
    input.onBlur();
  };

  return (
    <FormControl
      error={Boolean(problem ?? formError)}
      required={field.required}
      fullWidth
      sx={{ my: 1, maxWidth: 640 }}
      data-testid={`geometry-input-${field.name}`}
    >
      <FormLabel htmlFor={`${id}-wkt`} sx={{ mb: 0.5 }}>
        {field.label}
      </FormLabel>
      <Box
        data-testid="geometry-preview"
        sx={{
          position: 'relative',
          height: 200,
          border: 1,
          borderColor: 'divider',
          borderRadius: 1,
          overflow: 'hidden',
          zIndex: 0,
          bgcolor: 'action.hover',
        }}
      >
        {geometry ? (
          <Suspense fallback={null}>
            <GeometryPreviewMap geometry={geometry} />
          </Suspense>
        ) : (
          <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'center', height: '100%' }}>
            <Typography variant="body2" color="text.secondary">
              {translate(invalid ? 'handbookEditor.map.badWkt' : 'handbookEditor.map.notSet')}
            </Typography>
          </Box>
        )}
      </Box>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mt: 1, flexWrap: 'wrap' }}>
        <Button variant="outlined" size="small" startIcon={<EditLocationAltIcon />} onClick={() => setEditing(true)}>
          {translate('handbookEditor.map.edit')}
        </Button>
        <Button size="small" onClick={() => setShowText((shown) => !shown)} aria-expanded={showText}>
          {translate(showText ? 'handbookEditor.map.hideWkt' : 'handbookEditor.map.showWkt')}
        </Button>
        {parts > 1 && (
          <Typography variant="body2" color="text.secondary">
            {translate('handbookEditor.map.parts', { count: parts })}
          </Typography>
        )}
      </Box>
      <Collapse in={showText || invalid} unmountOnExit>
        <TextField
          id={`${id}-wkt`}
          label={translate('handbookEditor.map.wkt')}
          value={text}
          onChange={(event) => input.onChange(event.target.value)}
          onBlur={() => {
            setTouched(true);
            input.onBlur();
          }}
          error={invalid && checked}
          multiline
          minRows={2}
          maxRows={10}
          fullWidth
          inputRef={input.ref}
          sx={{ mt: 1 }}
          slotProps={{
            htmlInput: { 'data-testid': `geometry-wkt-${field.name}`, spellCheck: false, style: { fontFamily: 'monospace', fontSize: 13 } },
          }}
        />
      </Collapse>
      <FormHelperText>{helper ?? ' '}</FormHelperText>
      {editing && (
        <Suspense fallback={null}>
          <GeometryEditorDialog
            kind={field.kind}
            label={field.label}
            initial={geometry}
            onApply={apply}
            onClose={() => setEditing(false)}
          />
        </Suspense>
      )}
    </FormControl>
  );
}
