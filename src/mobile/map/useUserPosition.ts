import { useEffect, useState } from 'react';

export interface UserPosition {
  at: [number, number];
  accuracy: number;
}

/**
 * The phone's position, watched while the map is open (field-app spec 4: "geolocation watch tracks the user
 * position"); null until the first fix, or when the phone has no geolocation or the user refused it.
 */
export function useUserPosition(): { position: UserPosition | null; denied: boolean } {
  const [position, setPosition] = useState<UserPosition | null>(null);
  const [denied, setDenied] = useState(false);
  useEffect(() => {
    if (!('geolocation' in navigator)) return undefined;
    const id = navigator.geolocation.watchPosition(
      (fix) => {
        setDenied(false);
        setPosition((previous) =>
          previous &&
          previous.at[0] === fix.coords.latitude &&
          previous.at[1] === fix.coords.longitude &&
          previous.accuracy === fix.coords.accuracy
            ? previous
            : { at: [fix.coords.latitude, fix.coords.longitude], accuracy: fix.coords.accuracy },
        );
      },
      (error) => setDenied(error.code === error.PERMISSION_DENIED),
      { enableHighAccuracy: true, maximumAge: 10_000, timeout: 30_000 },
    );
    return () => navigator.geolocation.clearWatch(id);
  }, []);
  return { position, denied };
}
