import type { HlsConfig, LoadPolicy, RetryConfig } from 'hls.js';
import { VIDEO_MANIFEST_RETRIES, VIDEO_RETRY_DELAY_MS } from '../../shared/video/player';

/**
 * The manifest is retried 6 times, 1 s apart (field-app.md section 9). hls.js retries only timeouts and
 * 5xx answers by itself: a missing manifest (404, a camera whose stream is not up yet) would be fatal at
 * once, so `shouldRetry` retries every failure until the count is used up.
 */
export const MANIFEST_RETRY: RetryConfig = {
  maxNumRetry: VIDEO_MANIFEST_RETRIES,
  retryDelayMs: VIDEO_RETRY_DELAY_MS,
  maxRetryDelayMs: VIDEO_RETRY_DELAY_MS,
  shouldRetry: (config, retryCount) => retryCount < (config?.maxNumRetry ?? VIDEO_MANIFEST_RETRIES),
};

const MANIFEST_POLICY: LoadPolicy = {
  default: { maxTimeToFirstByteMs: 10_000, maxLoadTimeMs: 20_000, timeoutRetry: MANIFEST_RETRY, errorRetry: MANIFEST_RETRY },
};

/** hls.js settings of every player: live streams kept close to their edge, the manifest retried as above. */
export const HLS_CONFIG: Partial<HlsConfig> = {
  manifestLoadPolicy: MANIFEST_POLICY,
  // A live playlist is a manifest too (the first load, a media playlist, is retried the same).
  playlistLoadPolicy: MANIFEST_POLICY,
  lowLatencyMode: false,
  liveSyncDurationCount: 2,
  backBufferLength: 30,
  enableWorker: true,
};
