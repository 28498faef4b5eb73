import { Alert } from '@mui/material';
import { translateMessage } from '../../shared/errors';
import { useT } from '../i18n/translate';
import { HttpError } from '../providers/httpClient';
import { useLocale } from '../stores/localeStore';

/** A failed dispatch read or write: the server's message codes translated, or the general line. */
export function DispatchError({ error }: { error: unknown }) {
  const t = useT();
  const locale = useLocale();
  if (!error) return null;
  const messages =
    error instanceof HttpError && error.messages.length
      ? error.messages.map((m) => translateMessage(m, locale))
      : [t('dispatch.loadFailed')];
  return (
    <Alert severity="error" sx={{ my: 1 }} data-testid="dispatch-error">
      {messages.join('. ')}
    </Alert>
  );
}
