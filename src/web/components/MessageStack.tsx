import { useLayoutEffect } from 'react';
import { Alert, Stack } from '@mui/material';
import { useLocation } from 'react-router';
import { dismissMessage, enterPage, useMessages } from '../stores/messageStore';

/** The message stack of spec section 8: newest at the bottom, each gone after 4 seconds or when
 * the user leaves the page of an error; full width on a phone. */
export function MessageStack() {
  const messages = useMessages();
  const { pathname } = useLocation();
  useLayoutEffect(() => enterPage(pathname), [pathname]);
  if (messages.length === 0) return null;
  return (
    <Stack
      spacing={1}
      role="status"
      aria-live="polite"
      sx={{
        position: 'fixed',
        right: 16,
        left: { xs: 16, sm: 'auto' },
        bottom: 16,
        zIndex: (theme) => theme.zIndex.snackbar,
        maxWidth: 420,
      }}
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
