import { Box } from '@mui/material';
import { Link } from 'react-router';
import { rateColor } from '../../shared/bc/rate';
import { getSession } from '../../web/stores/sessionStore';
import type { ReportExtensions } from '../reports/reportExtensions';

/** Ticket control's cells: violations per 100 checked on the spec's gradient, an order opening its report. */
export const bcReportParts: Partial<ReportExtensions> = {
  cells: {
    rate: (value) => (
      <Box
        component="span"
        data-testid="rate-cell"
        sx={{
          display: 'inline-block',
          minWidth: 48,
          px: 1,
          borderRadius: 1,
          textAlign: 'right',
          color: '#000',
          bgcolor: rateColor(Number(value), getSession().user?.settings.bc?.rateRedAt),
        }}
      >
        {Number(value).toLocaleString('ru-RU', { minimumFractionDigits: 1, maximumFractionDigits: 1 })}
      </Box>
    ),
    taskLink: (value, row) => <Link to={`/bc/resultuser/${String(row.task_id)}`}>{String(value)}</Link>,
  },
};
