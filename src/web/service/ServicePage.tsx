import type { ReactNode } from 'react';
import { Box, Button, Typography } from '@mui/material';
import { Link } from 'react-router';
import { useT } from '../i18n/translate';

interface ServicePageProps {
  icon: ReactNode;
  title: string;
  text: string;
  testId: string;
  /** Replaces the default button to the main page (the field app's refresh, for instance). */
  action?: ReactNode;
}

/** The frame of the service routes: an icon, a heading, a line of text and a button to the main page. */
export function ServicePage({ icon, title, text, testId, action }: ServicePageProps) {
  const t = useT();
  return (
    <Box
      data-testid={testId}
      sx={{
        flex: 1,
        minHeight: 360,
        display: 'flex',
        flexDirection: 'column',
        alignItems: 'center',
        justifyContent: 'center',
        gap: 2,
        p: 4,
        textAlign: 'center',
      }}
    >
      <Box sx={{ color: 'primary.main', '& svg': { fontSize: 72 } }}>{icon}</Box>
      <Typography variant="h5" component="h1">
        {title}
      </Typography>
      <Typography color="text.secondary">{text}</Typography>
      {action ?? (
        <Button variant="contained" component={Link} to="/">
          {t('app.toMain')}
        </Button>
      )}
    </Box>
  );
}
