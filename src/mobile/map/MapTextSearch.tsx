import { useState } from 'react';
import { List, ListItemButton, ListItemText, TextField, Typography } from '@mui/material';
import { useT } from '../../web/i18n/translate';
import { goToSearchItem } from '../../web/map/locate';
import { useMapState } from '../../web/map/mapState';
import { mapApi } from '../../web/map/mapApi';
import type { MapSearchItem } from '../../web/map/searchResults';
import { useDebouncedLoad } from '../../web/map/useDebouncedLoad';

/**
 * Route search by name or number, or enterprise search by title (field-app spec 2.3), over GET /api/v1/map/search:
 * a route found is drawn and fitted, an enterprise centred with its details.
 */
export function MapTextSearch({ kind, onDone }: { kind: 'route' | 'enterprise'; onDone: () => void }) {
  const t = useT();
  const mapState = useMapState();
  const [text, setText] = useState('');
  const q = text.trim();
  const { data, loading } = useDebouncedLoad(q ? `${kind}:${q}` : null, (signal) => mapApi.search(q, { signal, quiet: true }));
  const items = (data ?? []).filter((item) => item.kind === kind);
  const choose = async (item: MapSearchItem) => {
    if (await goToSearchItem(mapState, item)) onDone();
  };
  return (
    <>
      <TextField
        size="small"
        fullWidth
        autoFocus
        value={text}
        onChange={(e) => setText(e.target.value.slice(0, 100))}
        label={t(`fieldMap.search.${kind}Query`)}
        slotProps={{ htmlInput: { 'data-testid': `${kind}-search-input`, enterKeyHint: 'search' } }}
      />
      {q && !loading && data && items.length === 0 && (
        <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
          {t('fieldMap.search.nothing')}
        </Typography>
      )}
      <List dense data-testid={`${kind}-search-results`}>
        {items.map((item) => (
          <ListItemButton key={item.id} onClick={() => void choose(item)} data-testid="map-search-result">
            <ListItemText primary={item.title} secondary={item.subtitle} />
          </ListItemButton>
        ))}
      </List>
    </>
  );
}
