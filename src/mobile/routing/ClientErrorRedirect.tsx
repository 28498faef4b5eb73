import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { clearClientError, useClientErrorFlag } from '../errors/clientErrorFlag';

/** Field-app spec 2.1: when the client-error flag is set, the app goes to /client-error; the flag is then cleared. */
export function ClientErrorRedirect(): null {
  const raised = useClientErrorFlag();
  const navigate = useNavigate();
  useEffect(() => {
    if (!raised) return;
    clearClientError();
    void navigate('/client-error');
  }, [raised, navigate]);
  return null;
}
