/** Field-app spec 9: the small map's zoom limits and start zoom (a vehicle located: VEHICLE_LOCATE_ZOOM, 16). */
export const FIELD_MAP_ZOOM = { min: 2, max: 18, start: 16 } as const;
/** Where an address found is shown (a building fills the view). */
export const ADDRESS_ZOOM = 17;
