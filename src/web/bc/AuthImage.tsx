import { useEffect, useState } from 'react';
import { Box, CircularProgress } from '@mui/material';
import { request } from '../providers/httpClient';

/**
 * An image of the API: read with the session's token (an <img src> cannot send it) and shown from a blob
 * address, released when the image goes.
 */
export function AuthImage({ src, alt, testId }: { src: string; alt: string; testId?: string }) {
  const [url, setUrl] = useState<string>();
  useEffect(() => {
    const controller = new AbortController();
    let address: string | undefined;
    void request<Blob>(src, { responseType: 'blob', signal: controller.signal, handleErrors: false })
      .then(({ body }) => {
        address = URL.createObjectURL(body);
        setUrl(address);
      })
      .catch(() => undefined);
    return () => {
      controller.abort();
      if (address) URL.revokeObjectURL(address);
    };
  }, [src]);
  if (!url)
    return (
      <Box sx={{ p: 2 }}>
        <CircularProgress size={24} />
      </Box>
    );
  return <Box component="img" src={url} alt={alt} data-testid={testId} sx={{ display: 'block', maxWidth: '100%', height: 'auto' }} />;
}
