import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { setNavigator } from './navigationBridge';

/** Lends the router's navigate to code outside React; renders nothing. */
export function NavigationBridge(): null {
  const navigate = useNavigate();
  useEffect(() => {
    setNavigator((path, options) => void navigate(path, options));
    return () => setNavigator(null);
  }, [navigate]);
  return null;
}
