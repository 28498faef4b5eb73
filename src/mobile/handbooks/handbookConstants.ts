/** Field-app spec section 9: handbook page sizes, the filter checklist's page and its input delay. */
export const HANDBOOK_PAGE_SIZES = [10, 20, 100] as const;
export const DEFAULT_HANDBOOK_PAGE_SIZE = 10;
export const FILTER_LIST_PAGE = 100;
export const FILTER_INPUT_DELAY_MS = 300;
