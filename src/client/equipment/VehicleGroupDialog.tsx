import { useState } from 'react';
import {
  Alert,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControlLabel,
  Radio,
  RadioGroup,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import type { GroupKind } from '../../shared/equipment/groups';
import { FilterModal } from '../components/FilterModal';
import type { FilterId, FilterOption } from '../../web/components/filterOptions';
import { useT } from '../../web/i18n/translate';
import { refreshQueries, useApiQuery } from '../../web/providers/queries';
import { showMessage } from '../../web/stores/messageStore';
import { useDebouncedValue } from '../../web/components/useDebouncedValue';
import { createGroup, filterOptions, group, previewGroup, updateGroup, vehicleOptions } from './equipmentApi';
import type { GroupFilter, GroupPreviewBody, GroupRow } from '../../shared/equipment/api';

type FilterKey = keyof GroupFilter;
const FILTER_KEYS: FilterKey[] = ['agencies', 'depots', 'models', 'terminalTypes', 'configurations'];
const PREVIEW_DELAY_MS = 300;

/** One list of the dynamic filter: a button opening the filter modal, and what is chosen. */
function FilterField({
  label,
  options,
  value,
  onChange,
  testId,
}: {
  label: string;
  options: FilterOption[];
  value: FilterId[];
  onChange: (ids: FilterId[]) => void;
  testId: string;
}) {
  const [open, setOpen] = useState(false);
  const names = options.filter((o) => value.includes(o.id)).map((o) => o.name);
  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
      <Button
        variant="outlined"
        size="small"
        onClick={() => setOpen(true)}
        data-testid={testId}
        sx={{ minWidth: 200, justifyContent: 'flex-start' }}
      >
        {label}
      </Button>
      <Typography variant="body2" sx={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
        {names.length ? names.join(', ') : '—'}
      </Typography>
      <FilterModal
        open={open}
        title={label}
        options={options}
        selected={value}
        onApply={(ids) => {
          onChange(ids);
          setOpen(false);
        }}
        onClose={() => setOpen(false)}
      />
    </Stack>
  );
}

/** Create or change a vehicle group: static (vehicles chosen in the filter modal) or dynamic (a filter). */
export function VehicleGroupDialog({ editing, onClose, onSaved }: { editing: GroupRow | null; onClose: () => void; onSaved: () => void }) {
  const t = useT();
  const [name, setName] = useState(editing?.name ?? '');
  const [kind, setKind] = useState<GroupKind>(editing?.kind ?? 'dynamic');
  // the vehicles chosen here; until then a static group's own
  const [picked, setPicked] = useState<number[] | null>(null);
  const [filter, setFilter] = useState<GroupFilter>(editing?.filter ?? {});
  const [choosing, setChoosing] = useState(false);
  const { data: options } = useApiQuery(['equipment', 'filter-options'], () => filterOptions());
  const { data: members } = useApiQuery(['equipment', 'group', editing?.id], () => group(editing!.id), {
    enabled: editing?.kind === 'static',
  });
  const vehicles = picked ?? members?.vehicles.map((v) => v.id) ?? [];
  const previewBody: GroupPreviewBody = kind === 'static' ? { kind, vehicles } : { kind, filter };
  // asked once the choice has stayed the same for a moment (compared by its text: the body is made anew each render)
  const settled = useDebouncedValue(JSON.stringify(previewBody), PREVIEW_DELAY_MS);
  const { data: preview } = useApiQuery(
    ['equipment', 'group-preview', settled],
    () => previewGroup(JSON.parse(settled) as GroupPreviewBody),
    {
      keepPrevious: true,
    },
  );

  const listOf = (key: FilterKey): FilterOption[] => {
    if (!options) return [];
    if (key === 'models') return options.models.map((m) => ({ id: m, name: m }));
    return options[key];
  };
  const save = async () => {
    const body = kind === 'static' ? { name, kind, vehicles } : { name, kind, filter };
    try {
      if (editing) {
        await updateGroup(editing.id, body);
        void refreshQueries(['equipment', 'group', editing.id]);
      } else await createGroup(body);
      showMessage(t('equipment.groups.saved'), 'success');
      onSaved();
    } catch {
      // shown by the http client
    }
  };

  return (
    <Dialog open onClose={onClose} maxWidth="sm" fullWidth>
      <DialogTitle>{editing ? `${t('equipment.groups.edit')}: ${editing.name}` : t('equipment.groups.create')}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          <TextField
            label={t('equipment.groups.name')}
            value={name}
            onChange={(e) => setName(e.target.value)}
            size="small"
            required
            slotProps={{ htmlInput: { maxLength: 100, 'data-testid': 'group-name' } }}
          />
          <RadioGroup row value={kind} onChange={(e) => setKind(e.target.value as GroupKind)}>
            <FormControlLabel
              value="dynamic"
              control={<Radio data-testid="group-kind-dynamic" />}
              label={t('equipment.groups.kinds.dynamic')}
            />
            <FormControlLabel
              value="static"
              control={<Radio data-testid="group-kind-static" />}
              label={t('equipment.groups.kinds.static')}
            />
          </RadioGroup>
          {kind === 'static' ? (
            <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
              <Button variant="outlined" onClick={() => setChoosing(true)} data-testid="group-choose-vehicles">
                {t('equipment.groups.chooseVehicles')}
              </Button>
              <Typography variant="body2">{t('equipment.groups.chosen', { count: vehicles.length })}</Typography>
              <FilterModal
                open={choosing}
                title={t('equipment.groups.chooseVehicles')}
                optionsQuery={{ key: ['equipment', 'vehicle-options'], load: vehicleOptions }}
                selected={vehicles}
                onApply={(ids) => {
                  setPicked(ids.map(Number));
                  setChoosing(false);
                }}
                onClose={() => setChoosing(false)}
              />
            </Stack>
          ) : (
            <Stack spacing={1}>
              {FILTER_KEYS.map((key) => (
                <FilterField
                  key={key}
                  label={t(`equipment.groups.${key}`)}
                  options={listOf(key)}
                  value={(filter[key] ?? []) as FilterId[]}
                  testId={`group-filter-${key}`}
                  onChange={(ids) => setFilter({ ...filter, [key]: key === 'models' ? ids.map(String) : ids.map(Number) })}
                />
              ))}
              <Alert severity="info">{t('equipment.groups.dynamicHint')}</Alert>
            </Stack>
          )}
          {preview && <Typography data-testid="group-preview">{t('equipment.groups.preview', { count: preview.count })}</Typography>}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('equipment.groups.cancel')}</Button>
        <Button variant="contained" onClick={save} disabled={!name.trim()} data-testid="group-save">
          {t('equipment.groups.save')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
