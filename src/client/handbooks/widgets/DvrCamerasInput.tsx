import { useState } from 'react';
import {
  Alert,
  Box,
  Button,
  Checkbox,
  Chip,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormHelperText,
  FormLabel,
  List,
  ListItemButton,
  ListItemIcon,
  ListItemText,
  Typography,
} from '@mui/material';
import VideocamIcon from '@mui/icons-material/Videocam';
import { useInput, useTranslate } from 'react-admin';
import type { WidgetField } from '../../../shared/handbooks/types';
import { useApiQuery } from '../../../web/providers/queries';
import { cameraIds, fetchCameraTypes, orderByIndex, toggleCamera, type CameraType } from './cameraTypes';

/** Camera types, loaded once per input; null while loading, undefined when the load failed. */
function useCameraTypes() {
  const query = useApiQuery(['handbooks', 'camera-types'], (signal) => fetchCameraTypes(signal));
  return query.isError ? undefined : (query.data ?? null);
}

/**
 * The recorder's cameras (spec section 3, dvr.cameras: edited in a modal list of camera types). The form
 * value under field.name is the list of camera type ids; the server replaces the recorder's cameras with it.
 */
export function DvrCamerasInput({ field }: { field: WidgetField }) {
  const translate = useTranslate();
  const { field: input, fieldState } = useInput<number[]>({ source: field.name, defaultValue: [] });
  const types = useCameraTypes();
  const [open, setOpen] = useState(false);
  const ids = cameraIds(input.value);
  const titleOf = (id: number) => types?.find((type) => type.id === id)?.title || translate('handbookEditor.cameras.unknown', { id });
  const setIds = (next: number[]) => input.onChange(orderByIndex(next, types ?? []));
  return (
    <Box sx={{ my: 1, width: '100%' }} data-testid="dvr-cameras">
      <FormLabel component="legend" sx={{ fontSize: '0.8rem' }}>
        {field.label}
      </FormLabel>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5, alignItems: 'center', mt: 0.5 }}>
        {ids.length === 0 && (
          <Typography variant="body2" color="text.secondary">
            {translate('handbookEditor.cameras.none')}
          </Typography>
        )}
        {ids.map((id) => (
          <Chip
            key={id}
            size="small"
            icon={<VideocamIcon />}
            label={titleOf(id)}
            onDelete={() => setIds(ids.filter((item) => item !== id))}
            data-testid="dvr-camera-chip"
          />
        ))}
        <Button size="small" variant="outlined" onClick={() => setOpen(true)} data-testid="dvr-cameras-choose">
          {translate('handbookEditor.cameras.choose')}
        </Button>
      </Box>
      {fieldState.error?.message && (
        <FormHelperText error>{translate(fieldState.error.message, { _: fieldState.error.message })}</FormHelperText>
      )}
      <Dialog open={open} onClose={() => setOpen(false)} maxWidth="xs" fullWidth>
        <DialogTitle>{translate('handbookEditor.cameras.title')}</DialogTitle>
        {open && (
          <CamerasChoice
            types={types}
            selected={ids}
            onApply={(next) => {
              setIds(next);
              setOpen(false);
            }}
            onCancel={() => setOpen(false)}
          />
        )}
      </Dialog>
    </Box>
  );
}

/** The dialog's body: mounted per opening, so each starts from the form's value. */
function CamerasChoice({
  types,
  selected,
  onApply,
  onCancel,
}: {
  types: CameraType[] | null | undefined;
  selected: number[];
  onApply: (ids: number[]) => void;
  onCancel: () => void;
}) {
  const translate = useTranslate();
  const [checked, setChecked] = useState<number[]>(selected);
  return (
    <>
      <DialogContent dividers sx={{ p: 0, maxHeight: 400 }} data-testid="dvr-cameras-dialog">
        {types === null && (
          <Box sx={{ p: 2, textAlign: 'center' }}>
            <CircularProgress size={24} aria-label={translate('app.loading')} />
          </Box>
        )}
        {types === undefined && (
          <Alert severity="error" sx={{ m: 2 }}>
            {translate('handbookEditor.cameras.loadFailed')}
          </Alert>
        )}
        {types?.length === 0 && (
          <Typography sx={{ p: 2 }} color="text.secondary">
            {translate('handbookEditor.cameras.empty')}
          </Typography>
        )}
        {types && types.length > 0 && (
          <List dense>
            {types.map((type) => (
              <ListItemButton key={type.id} onClick={() => setChecked((ids) => toggleCamera(ids, type.id))} data-testid="dvr-camera-option">
                <ListItemIcon sx={{ minWidth: 36 }}>
                  <Checkbox
                    edge="start"
                    size="small"
                    checked={checked.includes(type.id)}
                    tabIndex={-1}
                    disableRipple
                    slotProps={{ input: { 'aria-label': type.title } }}
                  />
                </ListItemIcon>
                <ListItemText primary={type.title} secondary={`№ ${type.index}`} />
              </ListItemButton>
            ))}
          </List>
        )}
      </DialogContent>
      <DialogActions>
        <Typography variant="caption" color="text.secondary" sx={{ flex: 1, pl: 1 }}>
          {translate('handbookEditor.cameras.selected', { count: checked.length })}
        </Typography>
        <Button onClick={onCancel}>{translate('handbookEditor.cameras.cancel')}</Button>
        <Button variant="contained" onClick={() => onApply(checked)} disabled={!types} data-testid="dvr-cameras-apply">
          {translate('handbookEditor.cameras.apply')}
        </Button>
      </DialogActions>
    </>
  );
}
