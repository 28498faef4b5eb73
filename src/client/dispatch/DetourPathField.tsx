import { lazy, Suspense, useMemo, useState } from 'react';
import { Box, Button, TextField } from '@mui/material';
import type { PathPoint } from '../../shared/dispatch/control';
import { geometryToWkt, parseWktGeometry, type Geometry } from '../../web/handbooks/inputs/wktGeometry';
import { useT } from '../../web/i18n/translate';

const GeometryPreviewMap = lazy(() => import('../handbooks/inputs/GeometryPreviewMap'));
const GeometryEditorDialog = lazy(() => import('../handbooks/inputs/GeometryEditorDialog'));

/** A detour's path as a line geometry (for the preview map and the editor). */
export const pathGeometry = (path: readonly PathPoint[]): Geometry => ({
  kind: 'line',
  multi: false,
  lines: [path.map(([a, b]) => [a, b])],
});

/** The path of a WKT LINESTRING, null when it is not one of two points at least. */
export function pathOfWkt(text: string): PathPoint[] | null {
  const geometry = parseWktGeometry(text, 'line');
  if (!geometry || geometry.kind !== 'line' || geometry.lines.length !== 1 || geometry.lines[0].length < 2) return null;
  return geometry.lines[0].map(([lat, lon]) => [lat, lon]);
}

/** A small still map of a detour's path (the changes list, the dialog). */
export function DetourPreview({ path, height = 140 }: { path: readonly PathPoint[]; height?: number }) {
  const geometry = useMemo(() => pathGeometry(path), [path]);
  return (
    <Box sx={{ height, width: '100%', minWidth: 200, position: 'relative', zIndex: 0 }} data-testid="detour-preview">
      <Suspense fallback={null}>
        <GeometryPreviewMap geometry={geometry} />
      </Suspense>
    </Box>
  );
}

/**
 * The detour's path: drawn on the base map with the handbooks' line editor (leaflet-geoman), or written as WKT;
 * the preview below. Starts from the line between the two stops when nothing is drawn yet.
 */
export function DetourPathField({ text, onChange, start }: { text: string; onChange: (text: string) => void; start: PathPoint[] }) {
  const t = useT();
  const [drawing, setDrawing] = useState(false);
  const path = pathOfWkt(text);
  const initial = path ?? (start.length >= 2 ? start : null);
  return (
    <Box>
      <TextField
        fullWidth
        multiline
        minRows={2}
        margin="dense"
        label={t('dispatch.control.path')}
        value={text}
        onChange={(e) => onChange(e.target.value)}
        error={text.trim() !== '' && !path}
        helperText={text.trim() !== '' && !path ? t('dispatch.control.pathInvalid') : ' '}
        slotProps={{ htmlInput: { 'data-testid': 'detour-path', spellCheck: false, style: { fontFamily: 'monospace', fontSize: 13 } } }}
      />
      <Button size="small" onClick={() => setDrawing(true)} data-testid="detour-draw">
        {t('dispatch.control.drawPath')}
      </Button>
      {path && <DetourPreview path={path} height={180} />}
      {drawing && (
        <Suspense fallback={null}>
          <GeometryEditorDialog
            kind="line"
            label={t('dispatch.control.pathTitle')}
            initial={initial ? pathGeometry(initial) : null}
            onApply={(wkt) => {
              onChange(wkt ?? '');
              setDrawing(false);
            }}
            onClose={() => setDrawing(false)}
          />
        </Suspense>
      )}
    </Box>
  );
}

/** The WKT of a path (what the field shows for one drawn before). */
export const wktOfPath = (path: readonly PathPoint[]) => geometryToWkt(pathGeometry(path)) ?? '';
