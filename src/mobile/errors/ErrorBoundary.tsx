import { Component, type ErrorInfo, type ReactNode } from 'react';

interface ErrorBoundaryProps {
  /** The error clears when this changes (the path: any route change clears the error, field-app spec 2.1). */
  resetKey: unknown;
  /** What shows instead of the children while there is an error; `reset` clears it. */
  fallback: (error: Error, reset: () => void) => ReactNode;
  children: ReactNode;
}

interface ErrorBoundaryState {
  error: Error | null;
}

function asError(value: unknown): Error {
  if (value instanceof Error) return value;
  const error = new Error(typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value)));
  error.name = 'Error';
  return error;
}

/** Catches a rendering error below it (the client-error state) and shows the fallback until reset. */
export class ErrorBoundary extends Component<ErrorBoundaryProps, ErrorBoundaryState> {
  state: ErrorBoundaryState = { error: null };

  static getDerivedStateFromError(error: unknown): ErrorBoundaryState {
    return { error: asError(error) };
  }

  componentDidCatch(error: unknown, info: ErrorInfo): void {
    console.error('Rendering error', error, info.componentStack);
  }

  componentDidUpdate(previous: ErrorBoundaryProps): void {
    if (this.state.error && previous.resetKey !== this.props.resetKey) this.setState({ error: null });
  }

  reset = (): void => {
    this.setState({ error: null });
  };

  render(): ReactNode {
    return this.state.error ? this.props.fallback(this.state.error, this.reset) : this.props.children;
  }
}
