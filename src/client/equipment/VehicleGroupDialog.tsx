import { useEffect, useState } from 'react';
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
import { showMessage } from '../../web/stores/messageStore';
import { createGroup, filterOptions, group, previewGroup, updateGroup, vehicleOptions } from './equipmentApi';
import type { FilterOptions, GroupFilter, GroupRow } from '../../shared/equipment/api';

type FilterKey = keyof GroupFilter;
const FILTER_KEYS: FilterKey[] = ['agencies', 'depots', 'models', 'terminalTypes', 'configurations'];

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
  const [vehicles, setVehicles] = useState<number[]>([]);
  const [filter, setFilter] = useState<GroupFilter>(editing?.filter ?? {});
  const [options, setOptions] = useState<FilterOptions | null>(null);
  const [choosing, setChoosing] = useState(false);
  const [count, setCount] = useState<number | null>(null);

  useEffect(() => {
    filterOptions().then(setOptions, () => undefined);
    if (editing?.kind === 'static')
      group(editing.id).then(
        (g) => setVehicles(g.vehicles.map((v) => v.id)),
        () => undefined,
      );
  }, [editing]);
  useEffect(() => {
    const timer = setTimeout(
      () =>
        previewGroup(kind === 'static' ? { kind, vehicles } : { kind, filter }).then(
          (r) => setCount(r.count),
          () => setCount(null),
        ),
      300,
    );
    return () => clearTimeout(timer);
  }, [kind, vehicles, filter]);

  const listOf = (key: FilterKey): FilterOption[] => {
    if (!options) return [];
    if (key === 'models') return options.models.map((m) => ({ id: m, name: m }));
    return options[key];
  };
  const save = async () => {
    const body = kind === 'static' ? { name, kind, vehicles } : { name, kind, filter };
    try {
      if (editing) await updateGroup(editing.id, body);
      else await createGroup(body);
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
                loadOptions={vehicleOptions}
                selected={vehicles}
                onApply={(ids) => {
                  setVehicles(ids.map(Number));
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
          {count !== null && <Typography data-testid="group-preview">{t('equipment.groups.preview', { count })}</Typography>}
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
