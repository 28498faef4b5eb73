import { VIDEO_MAX_RETRIES, VIDEO_RETRY_DELAY_MS, type PlayerState } from '../../shared/video/player';

/**
 * The player's retry rule (field-app.md section 4): each fatal playback error schedules one new attempt
 * (the stream requested again with a time stamp) after 1 s, at most 40 in a row; the 41st fatal error is
 * the red error state. A success (a fragment buffered) resets the count, so a stream that recovers gets
 * its 40 again the next time it drops.
 */
export class RetryPolicy {
  private attempts = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private disposed = false;

  constructor(
    /** Starts attempt n (1..max). */
    private readonly retry: (attempt: number) => void,
    private readonly onState: (state: PlayerState) => void,
    private readonly max = VIDEO_MAX_RETRIES,
    private readonly delayMs = VIDEO_RETRY_DELAY_MS,
  ) {}

  get attempt(): number {
    return this.attempts;
  }

  fatal(): void {
    if (this.disposed || this.timer !== undefined) return;
    if (this.attempts >= this.max) {
      this.onState({ kind: 'failed' });
      return;
    }
    this.attempts++;
    const attempt = this.attempts;
    this.onState({ kind: 'retrying', attempt, of: this.max });
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (!this.disposed) this.retry(attempt);
    }, this.delayMs);
  }

  success(): void {
    if (this.disposed) return;
    this.attempts = 0;
    this.onState({ kind: 'playing' });
  }

  dispose(): void {
    this.disposed = true;
    clearTimeout(this.timer);
    this.timer = undefined;
  }
}
