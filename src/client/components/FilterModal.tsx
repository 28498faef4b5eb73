import { useMemo, useState, type ReactNode } from 'react';
import { Button, Dialog, DialogActions, DialogContent, DialogTitle, TextField, Typography } from '@mui/material';
import { FILTER_MODAL } from '../../shared/constants';
import { useT } from '../../web/i18n/translate';
import { useApiQuery } from '../../web/providers/queries';
import { FilterList } from './FilterList';
import { filterOptions, toggleId, type FilterId, type FilterOption } from '../../web/components/filterOptions';

export interface FilterModalProps {
  open: boolean;
  title: ReactNode;
  /** The options, when the caller has them... */
  options?: readonly FilterOption[];
  /** ...or the query that reads them, asked each time the modal opens ('Загрузка' until the first answer). */
  optionsQuery?: { key: readonly unknown[]; load: (signal: AbortSignal) => Promise<readonly FilterOption[]> };
  selected: readonly FilterId[];
  /** 'Выбрать': the ids ticked; the modal closes. */
  onApply: (ids: FilterId[]) => void;
  /** Escape, a click outside: nothing changes. */
  onClose: () => void;
}

/**
 * The filter modal of spec section 2: a search box, a multi-select list, 'Выбрать' and 'Сбросить',
 * width 320, list at most 315 high. 'Сбросить' clears the ticks and the search inside the modal; only
 * 'Выбрать' hands a selection to the caller.
 */
export function FilterModal({ open, title, onClose, ...rest }: FilterModalProps) {
  return (
    <Dialog open={open} onClose={onClose} maxWidth={false} slotProps={{ paper: { sx: { width: FILTER_MODAL.width, m: 1 } } }}>
      <DialogTitle sx={{ pb: 1 }}>{title}</DialogTitle>
      {/* Dialog unmounts its content when closed, so every opening starts from the caller's selection. */}
      <FilterModalBody {...rest} onClose={onClose} />
    </Dialog>
  );
}

const NONE: readonly FilterOption[] = [];

function useOptions(options: FilterModalProps['options'], optionsQuery: FilterModalProps['optionsQuery']) {
  const asked = !options && Boolean(optionsQuery);
  const query = useApiQuery(optionsQuery?.key ?? ['filter-options'], (signal) => optionsQuery!.load(signal), { enabled: asked });
  return { all: options ?? query.data ?? NONE, loading: asked && query.isPending, failed: asked && query.isError };
}

function FilterModalBody({ options, optionsQuery, selected, onApply, onClose }: Omit<FilterModalProps, 'open' | 'title'>) {
  const t = useT();
  const [search, setSearch] = useState('');
  const [checked, setChecked] = useState<FilterId[]>(() => [...selected]);
  const { all, loading, failed } = useOptions(options, optionsQuery);
  const visible = useMemo(() => filterOptions(all, search), [all, search]);
  const reset = () => {
    setChecked([]);
    setSearch('');
  };
  const apply = () => {
    onApply(checked);
    onClose();
  };
  return (
    <>
      <DialogContent sx={{ pb: 0 }}>
        <TextField
          autoFocus
          fullWidth
          size="small"
          variant="outlined"
          margin="dense"
          placeholder={t('filter.search')}
          value={search}
          onChange={(event) => setSearch(event.target.value)}
          slotProps={{ htmlInput: { 'aria-label': t('filter.search') } }}
        />
        {failed ? (
          <Typography color="error" sx={{ py: 3, textAlign: 'center' }}>
            {t('loadFailed')}
          </Typography>
        ) : (
          <FilterList options={visible} checked={checked} loading={loading} onToggle={(id) => setChecked((ids) => toggleId(ids, id))} />
        )}
        <Typography variant="caption" color="text.secondary">
          {t('filter.selected', { count: checked.length })}
        </Typography>
      </DialogContent>
      <DialogActions>
        <Button onClick={reset}>{t('filter.reset')}</Button>
        <Button variant="contained" onClick={apply}>
          {t('filter.apply')}
        </Button>
      </DialogActions>
    </>
  );
}
