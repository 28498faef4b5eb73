import type { ComponentType, ReactNode } from 'react';
import type { useTranslate } from 'react-admin';
import type { ReportFilterValues } from '../../shared/reports/filters';
import type { ReportDeclaration, SpecialCell } from '../../shared/reports/types';

type Row = Record<string, unknown>;

/** What a report's special part gets: its declaration, every row of the result, the filters it was built with. */
export interface ReportPartProps {
  report: ReportDeclaration;
  rows: readonly Row[];
  filters: ReportFilterValues;
}

/** A row's detail view (it reads the row from react-admin's record context) and which rows open one. */
export interface ReportExpand {
  view: ComponentType;
  opens: (row: Row) => boolean;
}

/** A row's actions: they get the row and reload the list after a change. */
export type ReportRowActions = ComponentType<{ report: ReportDeclaration; row: Row; onChanged: () => void }>;

/** A cell with a behaviour of its own (a translated action, a rate on a gradient, a link). */
export type ReportCellView = (value: unknown, row: Row, translate: ReturnType<typeof useTranslate>) => ReactNode;

/**
 * The special parts an area gives the report scaffold, by the names its declarations use: the scaffold imports
 * no area; each area registers its own (src/client/reportAreas.ts lists them).
 */
export interface ReportExtensions {
  parts: Partial<Record<NonNullable<ReportDeclaration['part']>, ComponentType<ReportPartProps>>>;
  /** Shown above a report's filters' result, by report path. */
  leading: Record<string, ComponentType>;
  expands: Partial<Record<NonNullable<ReportDeclaration['expand']>, ReportExpand>>;
  rowActions: Partial<Record<NonNullable<ReportDeclaration['rowActions']>, ReportRowActions>>;
  cells: Partial<Record<SpecialCell, ReportCellView>>;
}

const extensions: ReportExtensions = { parts: {}, leading: {}, expands: {}, rowActions: {}, cells: {} };

/** Adds an area's parts. */
export function registerReportExtensions(area: Partial<ReportExtensions>): void {
  for (const key of Object.keys(area) as (keyof ReportExtensions)[]) Object.assign(extensions[key], area[key]);
}

export const reportExtensions: Readonly<ReportExtensions> = extensions;
