import { Backdrop, CircularProgress } from '@mui/material';
import { useIsLoading } from '../stores/spinnerStore';

/** Full-screen spinner while the pending-loads counter is above zero (spec section 4). */
export function SpinnerOverlay() {
  const loading = useIsLoading();
  return (
    <Backdrop open={loading} sx={{ zIndex: (theme) => theme.zIndex.modal + 1, color: '#fff' }} data-testid="spinner-overlay">
      <CircularProgress color="inherit" />
    </Backdrop>
  );
}
