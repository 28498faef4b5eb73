/**
 * Vehicle groups (after hawkBit's target filters): static ones list vehicles chosen by hand; dynamic ones a
 * filter, evaluated again whenever the group is read or rolled out to, so that new vehicles join.
 * Every list in the filter narrows (and); an empty or absent list does not.
 */
export interface GroupFilter {
  /** Carriers (agency). */
  agencies?: number[];
  /** Branches (mgt.depot). */
  depots?: number[];
  models?: string[];
  /** Terminal types (mgt.mnt_type). */
  terminalTypes?: number[];
  /** Configuration versions a terminal runs now (mnt.configuration ids); 0 = none applied yet. */
  configurations?: number[];
}

export const GROUP_KINDS = ['static', 'dynamic'] as const;
export type GroupKind = (typeof GROUP_KINDS)[number];
export const GROUP_NAME_MAX = 100;
export const GROUP_FILTER_LIST_MAX = 500;
export const STATIC_GROUP_MAX = 20_000;
