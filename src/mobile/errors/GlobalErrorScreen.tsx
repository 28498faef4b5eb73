import { Box, Button, Stack, Typography } from '@mui/material';
import ErrorOutlineIcon from '@mui/icons-material/ErrorOutlineOutlined';
import { useNavigate } from 'react-router';
import { useT } from '../../web/i18n/translate';

/**
 * The global error screen of field-app spec 2.1: 'Ошибка: {message}', the error's name and its stack, and
 * 'Вернуться', which clears the error and goes to /.
 */
export function GlobalErrorScreen({ error, reset }: { error: Error; reset: () => void }) {
  const t = useT();
  const navigate = useNavigate();
  const back = () => {
    reset();
    void navigate('/', { replace: true });
  };
  return (
    <Stack spacing={1.5} sx={{ flex: 1, p: 2, minWidth: 0 }} data-testid="global-error" role="alert">
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, color: 'error.main' }}>
        <ErrorOutlineIcon />
        <Typography variant="h6" component="h1" sx={{ wordBreak: 'break-word' }} data-testid="global-error-message">
          {t('mobile.error.message', { message: error.message })}
        </Typography>
      </Box>
      <Typography color="text.secondary" data-testid="global-error-name">
        {t('mobile.error.name', { name: error.name })}
      </Typography>
      {error.stack && (
        <Box
          component="pre"
          data-testid="global-error-stack"
          sx={{
            m: 0,
            p: 1.5,
            fontSize: 12,
            lineHeight: 1.4,
            whiteSpace: 'pre-wrap',
            wordBreak: 'break-all',
            maxHeight: '45vh',
            overflow: 'auto',
            bgcolor: 'grey.100',
            borderRadius: 1,
          }}
        >
          {error.stack}
        </Box>
      )}
      <Button variant="contained" size="large" onClick={back} data-testid="global-error-back" sx={{ alignSelf: 'stretch' }}>
        {t('mobile.error.back')}
      </Button>
    </Stack>
  );
}
