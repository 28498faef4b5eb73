import { useState, type ReactNode } from 'react';
import { Box, Button } from '@mui/material';
import PlayArrowIcon from '@mui/icons-material/PlayArrow';
import { useTranslate } from 'react-admin';
import type { ReportFilterValues } from '../../shared/reports/filters';
import type { ReportDeclaration } from '../../shared/reports/types';
import { ReportFilterInput } from './reportFilterInputs';

/**
 * The filters of a report, edited as a draft and applied by «Сформировать» (the draft starts from what the
 * URL holds). The export buttons sit beside it and export what was built.
 */
export function ReportFilterBar({
  report,
  applied,
  onBuild,
  children,
}: {
  report: ReportDeclaration;
  applied: ReportFilterValues;
  onBuild: (filters: ReportFilterValues) => void;
  children?: ReactNode;
}) {
  const translate = useTranslate();
  const [draft, setDraft] = useState<ReportFilterValues>(applied);
  const change = (patch: ReportFilterValues) => setDraft((current) => ({ ...current, ...patch }));
  return (
    <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1.5, alignItems: 'center', py: 1 }} data-testid="report-filters">
      {report.filters.map((filter) => (
        <ReportFilterInput key={filter.name} report={report} filter={filter} values={draft} onChange={change} />
      ))}
      <Button variant="contained" startIcon={<PlayArrowIcon />} onClick={() => onBuild(draft)} data-testid="report-build">
        {translate('reports.build')}
      </Button>
      <Box sx={{ flex: 1 }} />
      {children}
    </Box>
  );
}
