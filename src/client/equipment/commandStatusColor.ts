/** A terminal command's status as a chip colour (a rollout's counts, its commands' table). */
export const COMMAND_STATUS_COLOR: Record<number, 'default' | 'info' | 'warning' | 'success' | 'error'> = {
  1: 'default',
  2: 'info',
  3: 'warning',
  5: 'info',
  6: 'success',
  11: 'error',
  14: 'error',
};
