import type { ReactNode } from 'react';
import { Box, Checkbox, CircularProgress, List, ListItemButton, ListItemIcon, ListItemText, Typography } from '@mui/material';
import { FILTER_MODAL } from '../../shared/constants';
import { useT } from '../../web/i18n/translate';
import type { FilterId, FilterOption } from '../../web/components/filterOptions';

/** At most this many rows are drawn; a narrower search shows the rest. */
export const FILTER_LIST_MAX_ROWS = 500;

interface FilterListProps {
  options: readonly FilterOption[];
  checked: readonly FilterId[];
  loading: boolean;
  onToggle: (id: FilterId) => void;
}

function Notice({ children }: { children: ReactNode }) {
  return (
    <Box sx={{ py: 3, display: 'flex', gap: 1, alignItems: 'center', justifyContent: 'center', color: 'text.secondary' }}>{children}</Box>
  );
}

/** The multi-select list of the filter modal: 'Загрузка' while loading, 'Ничего не найдено' when empty. */
export function FilterList({ options, checked, loading, onToggle }: FilterListProps) {
  const t = useT();
  if (loading)
    return (
      <Notice>
        <CircularProgress size={18} /> {t('filter.loading')}
      </Notice>
    );
  if (options.length === 0) return <Notice>{t('filter.empty')}</Notice>;
  const shown = options.slice(0, FILTER_LIST_MAX_ROWS);
  return (
    <>
      <List dense disablePadding sx={{ maxHeight: FILTER_MODAL.listMaxHeight, overflowY: 'auto' }} data-testid="filter-list">
        {shown.map((option) => {
          const isChecked = checked.includes(option.id);
          return (
            <ListItemButton key={option.id} onClick={() => onToggle(option.id)} sx={{ py: 0 }} role="option" aria-selected={isChecked}>
              <ListItemIcon sx={{ minWidth: 36 }}>
                <Checkbox edge="start" size="small" checked={isChecked} tabIndex={-1} disableRipple />
              </ListItemIcon>
              <ListItemText primary={option.name} />
            </ListItemButton>
          );
        })}
      </List>
      {shown.length < options.length && (
        <Typography variant="caption" color="text.secondary">
          {t('filter.truncated', { shown: shown.length, total: options.length })}
        </Typography>
      )}
    </>
  );
}
