import { Typography } from '@mui/material';

const pad = (n: number) => String(n).padStart(2, '0');

/** Every third hour of a day's 24 columns named 00, 03 … 21. */
export const DAY_HOUR_LABELS: readonly string[] = Array.from({ length: 24 }, (_, hour) => (hour % 3 === 0 ? pad(hour) : ''));

/**
 * Axis names of a time grid's columns ('YYYY-MM-DD' or 'YYYY-MM-DDTHH:mm' bucket starts): hourly columns every
 * sixth hour (a day's start by its date DD.MM), daily columns every seventh day; '' for the rest.
 */
export function periodAxisLabels(periods: readonly string[]): string[] {
  const hourly = periods.some((period) => period.length > 10 && period.slice(11, 16) !== '00:00');
  const dayMonth = (period: string) => `${period.slice(8, 10)}.${period.slice(5, 7)}`;
  return periods.map((period, i) => {
    if (!hourly) return i % 7 === 0 ? dayMonth(period) : '';
    const hour = Number(period.slice(11, 13));
    if (hour % 6 !== 0) return '';
    return hour === 0 ? dayMonth(period) : period.slice(11, 13);
  });
}

/**
 * The header row of a CSS-grid time grid: an empty corner over the row names, then a cell per column whose
 * name (when it has one) runs on over the unnamed columns to its right: its box is as wide as its text (the
 * columns keep their fixed width), so the name is on screen as far as the browser knows too.
 */
export function timeGridHeader(labels: readonly string[], testId: string) {
  return [
    <span key="corner" />,
    ...labels.map((text, i) => (
      <Typography
        key={`h${i}`}
        variant="caption"
        data-testid={text ? testId : undefined}
        sx={{ fontSize: 10, lineHeight: 1, whiteSpace: 'nowrap', width: 'max-content', color: 'text.secondary' }}
      >
        {text}
      </Typography>
    )),
  ];
}
