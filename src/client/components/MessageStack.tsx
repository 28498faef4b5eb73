import { Alert, Stack } from '@mui/material';
import { dismissMessage, useMessages } from '../stores/messageStore';

/** The message stack of spec section 8: newest at the bottom, each gone after 4 seconds; full width on a phone. */
export function MessageStack() {
  const messages = useMessages();
  if (messages.length === 0) return null;
  return (
    <Stack
      spacing={1}
      role="status"
      aria-live="polite"
      sx={{ position: 'fixed', right: 16, left: { xs: 16, sm: 'auto' }, bottom: 16, zIndex: (theme) => theme.zIndex.snackbar, maxWidth: 420 }}
    >
      {messages.map((message) => (
        <Alert
          key={message.id}
          severity={message.severity}
          variant="filled"
          elevation={6}
          onClose={() => dismissMessage(message.id)}
          data-testid="message"
        >
          {message.text}
        </Alert>
      ))}
    </Stack>
  );
}
