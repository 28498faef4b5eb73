import type { Readable } from 'node:stream';
import yauzl from 'yauzl';

/** Largest single file of a feed, uncompressed: a city's stop_times.txt is a few hundred MB. */
export const FEED_FILE_MAX_BYTES = 4 * 1024 ** 3;

/**
 * A GTFS zip read in place (random access, one file streamed at a time), never unpacked whole. Files may sit in
 * a folder inside the zip, as many publishers pack them; they are known by their base name.
 */
export class ZipFeed {
  private constructor(
    private readonly zip: yauzl.ZipFile,
    private readonly entries: Map<string, yauzl.Entry>,
  ) {}

  static async open(path: string): Promise<ZipFeed> {
    const zip = await new Promise<yauzl.ZipFile>((resolve, reject) => {
      yauzl.open(path, { lazyEntries: true, autoClose: false, decodeStrings: true }, (error, file) =>
        error ? reject(error) : resolve(file),
      );
    });
    const entries = new Map<string, yauzl.Entry>();
    await new Promise<void>((resolve, reject) => {
      zip.on('entry', (entry: yauzl.Entry) => {
        const name = entry.fileName.split('/').pop() ?? '';
        if (!entry.fileName.endsWith('/') && !name.startsWith('.') && !entry.fileName.startsWith('__MACOSX/') && !entries.has(name)) {
          entries.set(name, entry);
        }
        zip.readEntry();
      });
      zip.once('end', () => resolve());
      zip.once('error', reject);
      zip.readEntry();
    });
    return new ZipFeed(zip, entries);
  }

  names(): string[] {
    return [...this.entries.keys()];
  }

  has(name: string): boolean {
    return this.entries.has(name);
  }

  async stream(name: string): Promise<Readable> {
    const entry = this.entries.get(name);
    if (!entry) throw new Error(`no ${name} in the feed`);
    if (entry.uncompressedSize > FEED_FILE_MAX_BYTES) throw new Error(`${name} is larger than ${FEED_FILE_MAX_BYTES} bytes`);
    return new Promise<Readable>((resolve, reject) => {
      this.zip.openReadStream(entry, (error, stream) => (error ? reject(error) : resolve(stream)));
    });
  }

  close(): void {
    this.zip.close();
  }
}
