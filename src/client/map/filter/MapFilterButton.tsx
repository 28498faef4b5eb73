import { useState } from 'react';
import { Badge, Chip, IconButton, ListItemText, Menu, MenuItem, Tooltip } from '@mui/material';
import FilterListIcon from '@mui/icons-material/FilterList';
import type { MapFilters } from '../../../shared/map';
import { FilterModal } from '../../components/FilterModal';
import type { FilterId } from '../../../web/components/filterOptions';
import { useT } from '../../../web/i18n/translate';
import { useCurrentUser } from '../../../web/stores/sessionStore';
import { useFilterSelection, useMapState } from '../../../web/map/mapState';
import {
  EMPTY_SELECTION,
  FILTER_CATEGORIES,
  branchOptions,
  routeOptionLabel,
  routeOptions,
  selectionCount,
  vehicleLabel,
  vehicleOptions,
  type FilterCategory,
  type MapFilterSelection,
} from '../../../web/map/filter/mapFilter';

function optionsFor(
  category: FilterCategory,
  filters: MapFilters,
  selection: MapFilterSelection,
  types: readonly { code: string; title: string }[],
) {
  switch (category) {
    case 'depots':
      return filters.depots.map((d) => ({ id: d.id, name: d.name }));
    case 'branches':
      return branchOptions(filters, selection).map((b) => ({ id: b.id, name: b.name }));
    case 'routes':
      return routeOptions(filters, selection).map((r) => ({ id: r.id, name: routeOptionLabel(r, types) }));
    default:
      return vehicleOptions(filters, selection).map((v) => ({ id: v.id, name: vehicleLabel(v) }));
  }
}

/**
 * The map filter: a toolbar button with the four lists (enterprises, branches, routes, vehicles), each in the
 * spec's filter modal; a chip counts what is chosen and resets it.
 */
export function MapFilterButton({ filters }: { filters: MapFilters | null }) {
  const t = useT();
  const { filterSelection } = useMapState();
  const selection = useFilterSelection();
  const user = useCurrentUser();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [open, setOpen] = useState<FilterCategory | null>(null);
  const count = selectionCount(selection);
  const apply = (category: FilterCategory, ids: FilterId[]) => filterSelection.set((s) => ({ ...s, [category]: ids.map(Number) }));
  return (
    <>
      <Tooltip title={t('mapView.filter.button')}>
        <span>
          <IconButton
            size="small"
            onClick={(e) => setAnchor(e.currentTarget)}
            disabled={!filters}
            aria-label={t('mapView.filter.button')}
            data-testid="map-filter-button"
          >
            <Badge color="secondary" badgeContent={count} invisible={count === 0}>
              <FilterListIcon />
            </Badge>
          </IconButton>
        </span>
      </Tooltip>
      <Menu anchorEl={anchor} open={anchor !== null} onClose={() => setAnchor(null)}>
        {FILTER_CATEGORIES.map((category) => (
          <MenuItem
            key={category}
            onClick={() => {
              setAnchor(null);
              setOpen(category);
            }}
            data-testid={`map-filter-${category}`}
          >
            <ListItemText
              primary={t(`mapView.filter.${category}`)}
              secondary={selection[category].length ? t('mapView.filter.chosen', { count: selection[category].length }) : null}
            />
          </MenuItem>
        ))}
      </Menu>
      {count > 0 && (
        <Chip
          size="small"
          color="primary"
          label={t('mapView.filter.selected', { count })}
          onDelete={() => filterSelection.set(EMPTY_SELECTION)}
          data-testid="map-filter-chip"
        />
      )}
      {filters && open && (
        <FilterModal
          open
          title={t(`mapView.filter.${open}`)}
          options={optionsFor(open, filters, selection, user?.transporttype ?? [])}
          selected={selection[open]}
          onApply={(ids) => apply(open, ids)}
          onClose={() => setOpen(null)}
        />
      )}
    </>
  );
}
