import { Alert, Button, Stack, Typography } from '@mui/material';
import { useT } from '../../web/i18n/translate';
import { retryOutbox, useOutbox } from './outbox';

/** What is still waiting to be sent from the phone, and what the server refused (with a retry). */
export function OutboxPanel({ userId }: { userId: number | undefined }) {
  const t = useT();
  const items = useOutbox(userId);
  if (!items.length) return null;
  const failed = items.filter((item) => item.error);
  return (
    <Alert
      severity={failed.length ? 'error' : 'info'}
      data-testid="outbox"
      data-count={items.length}
      action={
        failed.length ? (
          <Button color="inherit" size="small" onClick={() => void retryOutbox()}>
            {t('mobile.bc.retry')}
          </Button>
        ) : undefined
      }
    >
      <Typography variant="body2">{t('mobile.bc.outbox', { count: items.length })}</Typography>
      <Stack component="ul" sx={{ m: 0, pl: 2 }}>
        {items.map((item) => (
          <Typography component="li" variant="caption" key={item.seq}>
            {`${t(`mobile.bc.kinds.${item.kind}`)} · № ${item.taskId}${item.error ? ` — ${t('mobile.bc.outboxFailed', { message: item.error })}` : ''}`}
          </Typography>
        ))}
      </Stack>
    </Alert>
  );
}
