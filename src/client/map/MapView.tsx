import { useCallback, useState, type ReactNode } from 'react';
import type L from 'leaflet';
import { MapContainer } from 'react-leaflet';
import { getMapPositions } from '../stores/mapPositionStore';
import { lazyCanvas } from './lazyCanvas';
import { MapPositionSync } from './MapPositionSync';
import { MapResize } from './MapResize';
import { MapTiles } from './MapTiles';
import { mapInstance } from './mapState';

/**
 * The Leaflet map at the current position (the user's saved one after login, the spec's default
 * otherwise). Vector layers share one canvas renderer (a second canvas above would take the first one's
 * clicks); the layers are the render-less children.
 */
export function MapView({ children }: { children?: ReactNode }) {
  const { current } = getMapPositions();
  const [renderer] = useState(() => lazyCanvas());
  const ref = useCallback((map: L.Map | null) => {
    if (map) {
      map.getContainer().dataset.testid = 'map';
      map.attributionControl.setPrefix('<a href="https://leafletjs.com">Leaflet</a>');
    }
    mapInstance.set(map);
  }, []);
  return (
    <MapContainer
      ref={ref}
      center={[current.lat, current.lon]}
      zoom={current.zoom}
      renderer={renderer}
      worldCopyJump={false}
      style={{ position: 'absolute', inset: 0 }}
    >
      <MapTiles />
      <MapPositionSync />
      <MapResize />
      {children}
    </MapContainer>
  );
}
