import { useEffect, useReducer } from 'react';
import {
  Box,
  Button,
  Checkbox,
  CircularProgress,
  Drawer,
  FormControlLabel,
  List,
  ListItemButton,
  ListItemIcon,
  ListItemText,
  TextField,
  Typography,
} from '@mui/material';
import type { Filters } from '../../shared/handbooks/api';
import { displayKey } from '../../shared/handbooks/fields';
import type { Field, HandbookSchema } from '../../shared/handbooks/types';
import { useT } from '../../web/i18n/translate';
import { useDebouncedValue } from '../../web/components/useDebouncedValue';
import { queryHandbook } from './handbookQuery';
import { valueText } from './fieldHandbooks';
import { FILTER_INPUT_DELAY_MS, FILTER_LIST_PAGE } from './handbookConstants';
import {
  appliedFilter,
  canApply,
  hasMore,
  isChecked,
  openFilterPanel,
  optionKey,
  reduceFilterPanel,
  type ChecklistOption,
  type FilterScalar,
} from './filterPanelState';

interface HandbookFilterPanelProps {
  schema: HandbookSchema;
  field: Field;
  filters: Filters;
  onApply: (values: FilterScalar[] | undefined) => void;
  onReset: () => void;
  onClose: () => void;
}

/**
 * One field's filter panel (field-app spec 2.6, section 9): a checklist of the field's values under the other
 * filters, searched after a 300 ms pause and loaded 100 at a time ("show more"), select all, apply, cancel
 * and reset filters. A sheet from the bottom of the phone's screen.
 */
export function HandbookFilterPanel({ schema, field, filters, onApply, onReset, onClose }: HandbookFilterPanelProps) {
  const t = useT();
  const [state, dispatch] = useReducer(reduceFilterPanel, undefined, () => openFilterPanel(field.name, filters[field.name]));
  const search = useDebouncedValue(state.search, FILTER_INPUT_DELAY_MS);
  const others: Filters = { ...filters };
  delete others[field.name];
  const othersKey = JSON.stringify(others);
  const words = { yes: t('mobile.handbooks.yes'), no: t('mobile.handbooks.no') };

  const load = (offset: number, signal?: AbortSignal) => {
    dispatch({ type: 'loading' });
    const sortField = field.kind === 'ref' ? displayKey(field.name) : field.name;
    return queryHandbook(
      {
        schema: schema.table.schema,
        table: schema.table.name,
        fields: [field.name],
        distinct: true,
        search: search.trim() || undefined,
        limit: FILTER_LIST_PAGE,
        offset,
        filters: JSON.parse(othersKey) as Filters,
        sort: { field: sortField, order: 'ASC' },
      },
      signal,
    ).then(
      (page) => {
        if (signal?.aborted) return;
        const options: ChecklistOption[] = page.list.map((row) => {
          const value = (row[field.name] ?? null) as FilterScalar;
          return { key: optionKey(value), value, label: valueText(field, row, words) || t('mobile.handbooks.blank') };
        });
        dispatch({ type: 'loaded', options, count: page.count, append: offset > 0 });
      },
      () => {
        if (!signal?.aborted) dispatch({ type: 'loaded', options: [], count: 0, append: offset > 0 });
      },
    );
  };

  useEffect(() => {
    const controller = new AbortController();
    void load(0, controller.signal);
    return () => controller.abort();
    // reloads when the search (after its pause) or the other filters change; `load` reads them
  }, [search, othersKey]);

  return (
    <Drawer
      anchor="bottom"
      open
      onClose={onClose}
      slotProps={{ paper: { sx: { maxHeight: '85dvh', borderTopLeftRadius: 12, borderTopRightRadius: 12 } } }}
    >
      <Box sx={{ display: 'flex', flexDirection: 'column', minHeight: 0, p: 2, gap: 1 }} data-testid="filter-panel">
        <Typography variant="subtitle1" sx={{ fontWeight: 600 }}>
          {t('mobile.handbooks.filter', { field: field.label })}
        </Typography>
        <TextField
          size="small"
          fullWidth
          label={t('mobile.handbooks.filterSearch')}
          value={state.search}
          onChange={(event) => dispatch({ type: 'search', text: event.target.value })}
          slotProps={{ htmlInput: { maxLength: 200, 'data-testid': 'filter-search' } }}
        />
        <FormControlLabel
          control={
            <Checkbox
              checked={state.allSelected}
              indeterminate={!state.allSelected && state.selected.length > 0}
              onChange={() => dispatch({ type: 'toggleAll' })}
              data-testid="filter-select-all"
            />
          }
          label={t('mobile.handbooks.selectAll')}
        />
        <List
          dense
          sx={{ overflowY: 'auto', minHeight: 80, flex: 1, border: 1, borderColor: 'divider', borderRadius: 1 }}
          data-testid="filter-options"
        >
          {state.options.map((option) => (
            <ListItemButton
              key={option.key}
              onClick={() => dispatch({ type: 'toggle', key: option.key })}
              data-testid="filter-option"
              data-value={option.label}
            >
              <ListItemIcon sx={{ minWidth: 36 }}>
                <Checkbox edge="start" size="small" checked={isChecked(state, option.key)} tabIndex={-1} disableRipple />
              </ListItemIcon>
              <ListItemText primary={option.label} />
            </ListItemButton>
          ))}
          {!state.loading && state.options.length === 0 && (
            <Typography sx={{ p: 1.5 }} color="text.secondary" data-testid="filter-nothing">
              {t('mobile.handbooks.nothing')}
            </Typography>
          )}
          {state.loading && (
            <Box sx={{ display: 'flex', justifyContent: 'center', p: 1 }}>
              <CircularProgress size={22} />
            </Box>
          )}
          {!state.loading && hasMore(state) && (
            <Button fullWidth onClick={() => void load(state.options.length)} data-testid="filter-more">
              {t('mobile.handbooks.showMore')}
            </Button>
          )}
        </List>
        <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', justifyContent: 'space-between' }}>
          <Button color="inherit" onClick={onReset} data-testid="filter-reset">
            {t('mobile.handbooks.reset')}
          </Button>
          <Box sx={{ display: 'flex', gap: 1 }}>
            <Button onClick={onClose} data-testid="filter-cancel">
              {t('mobile.handbooks.cancel')}
            </Button>
            <Button
              variant="contained"
              disabled={!canApply(state)}
              onClick={() => onApply(appliedFilter(state))}
              data-testid="filter-apply"
            >
              {t('mobile.handbooks.apply')}
            </Button>
          </Box>
        </Box>
      </Box>
    </Drawer>
  );
}
