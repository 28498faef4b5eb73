/**
 * Vehicle groups (after hawkBit's target filters): static ones list vehicles chosen by hand; dynamic ones a
 * filter (GroupFilter, src/shared/equipment/api.ts), evaluated again whenever the group is read or rolled out
 * to, so that new vehicles join.
 */
export const GROUP_KINDS = ['static', 'dynamic'] as const;
export type GroupKind = (typeof GROUP_KINDS)[number];
export const GROUP_NAME_MAX = 100;
export const GROUP_FILTER_LIST_MAX = 500;
export const STATIC_GROUP_MAX = 20_000;
