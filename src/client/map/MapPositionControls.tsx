import { useState } from 'react';
import { IconButton, Tooltip } from '@mui/material';
import SaveIcon from '@mui/icons-material/SaveOutlined';
import RestoreIcon from '@mui/icons-material/SettingsBackupRestore';
import { useT } from '../../web/i18n/translate';
import { saveMapPosition } from '../../web/providers/session';
import { getMapPositions, restoreSavedPosition } from '../../web/stores/mapPositionStore';
import { showMessage } from '../../web/stores/messageStore';
import { positionOf } from '../../web/map/layers/ViewLayer';
import { useMapState } from '../../web/map/mapState';

/** 'Сохранить положение' (POST /api/v1/auth/coord) and 'Вернуться к сохранённому' (set saved: saved → current). */
export function MapPositionControls() {
  const t = useT();
  const { mapInstance } = useMapState();
  const [saving, setSaving] = useState(false);
  const save = () => {
    setSaving(true);
    const map = mapInstance.get();
    saveMapPosition(map ? positionOf(map) : getMapPositions().current)
      .then(
        () => showMessage(t('mapView.position.saved'), 'success'),
        () => undefined,
      )
      .finally(() => setSaving(false));
  };
  return (
    <>
      <Tooltip title={t('mapView.position.save')}>
        <span>
          <IconButton size="small" onClick={save} disabled={saving} aria-label={t('mapView.position.save')} data-testid="map-save-position">
            <SaveIcon />
          </IconButton>
        </span>
      </Tooltip>
      <Tooltip title={t('mapView.position.restore')}>
        <IconButton
          size="small"
          onClick={restoreSavedPosition}
          aria-label={t('mapView.position.restore')}
          data-testid="map-restore-position"
        >
          <RestoreIcon />
        </IconButton>
      </Tooltip>
    </>
  );
}
