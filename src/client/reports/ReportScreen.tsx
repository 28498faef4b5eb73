import { lazy, Suspense, useEffect, useMemo, useState, type ReactNode } from 'react';
import { Alert, Box, Button, LinearProgress, Typography } from '@mui/material';
import { Navigate, useLocation, useSearchParams } from 'react-router';
import { Title, useTranslate } from 'react-admin';
import { reportOf } from '../../shared/reports';
import { presetClock, presetPeriod, type ReportFilterValues } from '../../shared/reports/filters';
import { periodFilter, type ReportDeclaration } from '../../shared/reports/types';
import { ReportExport } from './ReportExport';
import { reportExtensions } from './reportExtensions';
import { ReportFilterBar } from './ReportFilterBar';
import { HistoryFillNotice } from './HistoryFillNotice';
import { ReportTable } from './ReportTable';
import { readReportUrl, writeReportUrl, type ReportUrlState } from './reportUrl';
import { useReportData } from './useReportData';

const ReportChart = lazy(() => import('./ReportChart'));

/** What a bare screen's filter bar starts with: the declared period preset and the choices' defaults. */
function startingFilters(report: ReportDeclaration, state: ReportUrlState): ReportFilterValues {
  if (state.built) return state.filters;
  const start: ReportFilterValues = { ...state.filters };
  for (const filter of report.filters) if (filter.kind === 'choice') start[filter.name] ??= filter.default;
  const filter = periodFilter(report);
  if (!filter?.preset) return start;
  const { from, to } = presetPeriod(filter.preset, presetClock(filter));
  return { ...start, from: from.toISOString(), to: to.toISOString() };
}

/**
 * A declared report's whole page (SCREENS.md, "Reports: the common shape"): filter bar and «Сформировать»,
 * progress with cancel for a slow build, charts with their numbers, the server-sorted and paged table with
 * totals, CSV and XLSX export, and a clear line when nothing matches. `children` is a screen's special
 * part (a map, a matrix, a player), shown above the table; `toolbar` sits beside the export buttons.
 * A report declaring `refresh` loads again by itself while a row shows work under way.
 */
export function ReportPage({ report, children, toolbar }: { report: ReportDeclaration; children?: ReactNode; toolbar?: ReactNode }) {
  const translate = useTranslate();
  const [search, setSearch] = useSearchParams();
  const state = useMemo(() => readReportUrl(report, search), [report, search]);
  const [build, setBuild] = useState(0);
  const { load, last, cancel } = useReportData(report, state, build);
  const go = (next: Partial<Pick<ReportUrlState, 'filters' | 'sort' | 'page'>>) => setSearch(writeReportUrl(report, { ...state, ...next }));
  const result = load.status === 'done' ? load.result : last;
  const Leading = reportExtensions.leading[report.path];
  const Part = report.part ? reportExtensions.parts[report.part] : undefined;
  useEffect(() => {
    const refresh = report.refresh;
    if (!refresh || load.status !== 'done') return;
    if (!load.result.data.some((row) => refresh.values.includes(String(row[refresh.field])))) return;
    const timer = setTimeout(() => setBuild((n) => n + 1), refresh.everyMs);
    return () => clearTimeout(timer);
  }, [report, load]);
  return (
    <Box sx={{ px: 2, pb: 2 }}>
      <Title title={report.menu.label} />
      <ReportFilterBar
        report={report}
        applied={startingFilters(report, state)}
        onBuild={(filters) => {
          go({ filters, page: 1 });
          setBuild((n) => n + 1);
        }}
      >
        <ReportExport report={report} state={state} />
        {toolbar}
      </ReportFilterBar>
      <HistoryFillNotice module={report.module} />
      {Leading && (
        <Suspense fallback={<LinearProgress />}>
          <Leading />
        </Suspense>
      )}
      {state.invalid && (
        <Alert severity="warning" sx={{ mb: 1 }}>
          {translate('reports.invalidLink')}
        </Alert>
      )}
      {load.status === 'loading' && load.slow && (
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, my: 1 }} data-testid="report-progress">
          <LinearProgress sx={{ flex: 1 }} />
          <Typography variant="body2">{translate('reports.building')}</Typography>
          <Button size="small" onClick={cancel} data-testid="report-cancel">
            {translate('reports.cancel')}
          </Button>
        </Box>
      )}
      {load.status === 'cancelled' && (
        <Alert severity="info" sx={{ my: 1 }}>
          {translate('reports.cancelled')}
        </Alert>
      )}
      {!state.built && (
        <Typography color="text.secondary" sx={{ my: 2 }} data-testid="report-hint">
          {translate('reports.hint')}
        </Typography>
      )}
      {state.built && result && result.total === 0 && (
        <Typography color="text.secondary" sx={{ my: 2 }} data-testid="report-empty">
          {translate('reports.empty')}
        </Typography>
      )}
      {state.built && result && result.total > 0 && (
        <>
          {children}
          {Part && (
            <Suspense fallback={<LinearProgress />}>
              <Part report={report} rows={result.meta.chart ?? []} filters={state.filters} />
            </Suspense>
          )}
          {report.charts?.map((chart) => (
            <Suspense key={chart.title} fallback={<LinearProgress />}>
              <ReportChart report={report} chart={chart} rows={result.meta.chart ?? []} />
            </Suspense>
          ))}
          <ReportTable
            report={report}
            rows={result}
            state={state}
            onSort={(field) =>
              go({ sort: { field, order: state.sort.field === field && state.sort.order === 'DESC' ? 'ASC' : 'DESC' }, page: 1 })
            }
            onPage={(page) => go({ page })}
            onChanged={() => setBuild((n) => n + 1)}
          />
        </>
      )}
    </Box>
  );
}

/** Every declared report's route: the declaration found by the address. */
export default function ReportScreen() {
  const { pathname } = useLocation();
  const report = reportOf(pathname);
  if (!report) return <Navigate to="/not-found" replace />;
  return <ReportPage key={report.path} report={report} />;
}
