import type { ReactNode } from 'react';
import { useLocation } from 'react-router';
import { ErrorBoundary } from './ErrorBoundary';
import { GlobalErrorScreen } from './GlobalErrorScreen';

/**
 * The client-error state of field-app spec 2.1: a rendering error below shows the global error screen (inside
 * `frame`, if given), and any route change clears it. Reading the location here, not in the parent, keeps a
 * route change from re-rendering the children.
 */
export function RouteErrorBoundary({ children, frame }: { children: ReactNode; frame?: (screen: ReactNode) => ReactNode }) {
  const { pathname } = useLocation();
  return (
    <ErrorBoundary
      resetKey={pathname}
      fallback={(error, reset) => {
        const screen = <GlobalErrorScreen error={error} reset={reset} />;
        return frame ? frame(screen) : screen;
      }}
    >
      {children}
    </ErrorBoundary>
  );
}
