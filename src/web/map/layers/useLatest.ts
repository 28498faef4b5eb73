import { useRef } from 'react';

/**
 * The latest value of a prop, for Leaflet handlers bound once: a layer keeps its Leaflet objects when only
 * a handler's identity changes (a screen passing arrow functions re-renders without rebuilding the layer).
 */
export function useLatest<T>(value: T): { readonly current: T } {
  const ref = useRef(value);
  ref.current = value;
  return ref;
}
