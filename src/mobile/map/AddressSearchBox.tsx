import { useEffect, useRef, useState } from 'react';
import {
  CircularProgress,
  IconButton,
  InputAdornment,
  List,
  ListItemButton,
  ListItemText,
  Paper,
  TextField,
  Typography,
} from '@mui/material';
import ClearIcon from '@mui/icons-material/Clear';
import PlaceIcon from '@mui/icons-material/PlaceOutlined';
import type { GeocoderItem } from '../../shared/geocoder';
import { ADDRESS_QUERY_MAX } from '../../shared/geocoder';
import { useT } from '../../web/i18n/translate';
import { useApiQuery } from '../../web/providers/queries';
import { AddressSearch } from './addressSearch';
import { fieldMapApi } from './fieldMapApi';

/**
 * The address search box (field-app spec 2.3, not in the ticket-control modes): the query goes out 1 s after
 * the last keystroke, prefixed with the city name, and shows 5 results; choosing one centres the map on it.
 */
export function AddressSearchBox({ onChoose }: { onChoose: (item: GeocoderItem) => void }) {
  const t = useT();
  const [text, setText] = useState('');
  const [items, setItems] = useState<GeocoderItem[]>([]);
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);
  const [searched, setSearched] = useState('');
  // the city the server's geocoder is set up for, asked once while the app is open; without it (the read is
  // quiet) the query goes out as typed
  const city =
    useApiQuery(['geocoder', 'settings'], (signal) => fieldMapApi.geocoderSettings(signal), { staleTime: Infinity }).data?.city ?? '';
  const cityRef = useRef(city);
  useEffect(() => {
    cityRef.current = city;
  }, [city]);
  const [search] = useState(
    () =>
      new AddressSearch({
        city: () => cityRef.current,
        fetch: fieldMapApi.geocode,
        onResults: (found, query) => {
          setFailed(false);
          setItems(found);
          setSearched(query);
        },
        onBusy: setBusy,
        onError: () => setFailed(true),
      }),
  );
  useEffect(() => () => search.dispose(), [search]);

  const change = (value: string) => {
    const next = value.slice(0, ADDRESS_QUERY_MAX - city.length - 2);
    setText(next);
    setFailed(false);
    search.input(next);
  };
  const choose = (item: GeocoderItem) => {
    setItems([]);
    setSearched('');
    setText(item.label);
    onChoose(item);
  };

  return (
    <Paper elevation={4} sx={{ position: 'absolute', left: 12, right: 64, top: 12, zIndex: 1000 }} data-testid="address-search">
      <TextField
        size="small"
        fullWidth
        value={text}
        onChange={(e) => change(e.target.value)}
        placeholder={t('fieldMap.address.placeholder')}
        slotProps={{
          htmlInput: { 'data-testid': 'address-search-input', enterKeyHint: 'search', 'aria-label': t('fieldMap.address.placeholder') },
          input: {
            startAdornment: (
              <InputAdornment position="start">
                <PlaceIcon fontSize="small" />
              </InputAdornment>
            ),
            endAdornment: busy ? (
              <CircularProgress size={18} />
            ) : text ? (
              <IconButton size="small" onClick={() => change('')} aria-label={t('fieldMap.address.clear')}>
                <ClearIcon fontSize="small" />
              </IconButton>
            ) : null,
          },
        }}
      />
      {failed && (
        <Typography variant="body2" color="error" sx={{ px: 1.5, py: 1 }}>
          {t('fieldMap.address.failed')}
        </Typography>
      )}
      {!failed && searched && items.length === 0 && !busy && (
        <Typography variant="body2" color="text.secondary" sx={{ px: 1.5, py: 1 }} data-testid="address-search-empty">
          {t('fieldMap.search.nothing')}
        </Typography>
      )}
      {items.length > 0 && (
        <List dense data-testid="address-search-results" sx={{ maxHeight: 260, overflowY: 'auto' }}>
          {items.map((item, i) => (
            <ListItemButton key={`${item.label}-${i}`} onClick={() => choose(item)} data-testid="address-search-result">
              <ListItemText primary={item.label} secondary={t(`fieldMap.address.kinds.${item.kind}`)} />
            </ListItemButton>
          ))}
        </List>
      )}
    </Paper>
  );
}
