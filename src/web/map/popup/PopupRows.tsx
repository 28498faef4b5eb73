import type { ReactNode } from 'react';
import { Box, Typography } from '@mui/material';

/** The label–value rows of a details popup; empty values are left out. */
export function PopupRows({ rows }: { rows: [string, ReactNode][] }) {
  return (
    <Box component="dl" sx={{ display: 'grid', gridTemplateColumns: 'auto 1fr', columnGap: 1.5, rowGap: 0.25, m: 0, fontSize: 13 }}>
      {rows
        .filter(([, value]) => value !== null && value !== undefined && value !== '')
        .map(([label, value]) => (
          <Box key={label} sx={{ display: 'contents' }}>
            <Box component="dt" sx={{ color: 'text.secondary' }}>
              {label}
            </Box>
            <Box component="dd" sx={{ m: 0, fontWeight: 500 }}>
              {value}
            </Box>
          </Box>
        ))}
    </Box>
  );
}

export function PopupTitle({ children }: { children: ReactNode }) {
  return (
    <Typography variant="subtitle2" sx={{ mb: 0.75, pr: 2, fontSize: 15 }}>
      {children}
    </Typography>
  );
}
