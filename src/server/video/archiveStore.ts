import { mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Segments fetched from a media server for an archive request, as files: <dir>/<request>/<camera>/<n>.ts.
 * (The demo source needs none: its recording is the committed loop at the period's clock times.)
 */
export class ArchiveStore {
  constructor(readonly dir: string) {}

  private file(requestId: number, camera: number, n: number): string {
    return join(this.dir, String(requestId), String(camera), `${n}.ts`);
  }

  async write(requestId: number, camera: number, n: number, body: Buffer): Promise<void> {
    await mkdir(join(this.dir, String(requestId), String(camera)), { recursive: true });
    await writeFile(this.file(requestId, camera, n), body);
  }

  read(requestId: number, camera: number, n: number): Promise<Buffer> {
    return readFile(this.file(requestId, camera, n));
  }

  async size(requestId: number, camera: number, n: number): Promise<number> {
    return (await stat(this.file(requestId, camera, n))).size;
  }

  remove(requestId: number): Promise<void> {
    return rm(join(this.dir, String(requestId)), { recursive: true, force: true });
  }
}

/** What a media server's archive listed for a request: per camera its segments (address, seconds). */
export interface ArchivePlan {
  cameras: { index: number; segments: { uri: string; duration: number }[] }[];
}

/** The segments of a recorded HLS playlist (#EXTINF durations and addresses, resolved against the playlist). */
export function parseMediaPlaylist(text: string, base: string): { uri: string; duration: number }[] {
  const segments: { uri: string; duration: number }[] = [];
  let duration = 0;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line.startsWith('#EXTINF:')) duration = Number.parseFloat(line.slice(8)) || 0;
    else if (line && !line.startsWith('#')) {
      segments.push({ uri: new URL(line, base).toString(), duration });
      duration = 0;
    }
  }
  return segments;
}
