import { useState } from 'react';
import { Badge, Button } from '@mui/material';
import FilterListIcon from '@mui/icons-material/FilterList';
import { useTranslate } from 'react-admin';
import type { PickerFilter, ReportDeclaration } from '../../shared/reports/types';
import { reportApi } from '../../shared/reports/types';
import { FilterModal } from '../components/FilterModal';
import type { FilterOption } from '../../web/components/filterOptions';
import { getJson } from '../../web/providers/httpClient';

/**
 * A picker filter (vehicles, routes, depots, users, incident types): a button naming how many are chosen,
 * opening the filter modal of console.md section 2 over the report's own option list.
 */
export function ReportPickerInput({
  report,
  filter,
  value,
  onChange,
}: {
  report: ReportDeclaration;
  filter: PickerFilter;
  value: number[] | undefined;
  onChange: (ids: number[] | undefined) => void;
}) {
  const translate = useTranslate();
  const [open, setOpen] = useState(false);
  const url = `${reportApi(report)}/options/${filter.name}`;
  const optionsQuery = { key: ['reports', 'picker-options', url], load: (signal: AbortSignal) => getJson<FilterOption[]>(url, { signal }) };
  const label = translate(filter.label);
  return (
    <>
      <Badge color="primary" badgeContent={value?.length ?? 0} invisible={!value?.length}>
        <Button
          variant="outlined"
          size="medium"
          startIcon={<FilterListIcon />}
          onClick={() => setOpen(true)}
          data-testid={`report-picker-${filter.name}`}
        >
          {label}
        </Button>
      </Badge>
      <FilterModal
        open={open}
        title={label}
        optionsQuery={optionsQuery}
        selected={value ?? []}
        onApply={(ids) => onChange(ids.length ? ids.map(Number) : undefined)}
        onClose={() => setOpen(false)}
      />
    </>
  );
}
