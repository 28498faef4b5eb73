import { useCallback } from 'react';
import { useSearchParams } from 'react-router';

/**
 * A popup opened by a query parameter (field-app spec 2.3: ?showLayers, ?showEntitiesSearchPopup), so the
 * phone's back button closes it. Opening pushes a history entry; closing replaces it.
 */
export function useQueryFlag(name: string): [boolean, (open: boolean) => void] {
  const [params, setParams] = useSearchParams();
  const open = params.get(name) === 'true';
  const set = useCallback(
    (next: boolean) =>
      setParams(
        (current) => {
          const updated = new URLSearchParams(current);
          if (next) updated.set(name, 'true');
          else updated.delete(name);
          return updated;
        },
        { replace: !next },
      ),
    [name, setParams],
  );
  return [open, set];
}
