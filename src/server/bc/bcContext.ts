import type { PhotoStore } from './photoStore';

/** What the ticket-control routes share: the operator's day and the not-achieved sweep. */
export interface BcContext {
  offsetMinutes: number;
  today(): string;
  sweep(): Promise<void>;
  photos: PhotoStore;
}
