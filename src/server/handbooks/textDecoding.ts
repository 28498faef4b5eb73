import { isAscii, isUtf8 } from 'node:buffer';
import { ApiError } from '../http/errors';

/** The encodings an imported file may be in: UTF-8, or Windows-1251 as Excel in Russia saves "CSV". */
export type FileCharset = 'utf-8' | 'windows-1251';

/** A file in neither encoding (or with U+FFFD, the mark of an earlier wrong decoding): refused, never stored as garbage. */
export class FileEncodingError extends ApiError {
  constructor(readonly line: number) {
    super(400, ['validation_import_encoding', `line ${line}`]);
  }
}

/** The charset a Content-Type declares, when it is one of ours (cp1251 and its aliases included). */
export function declaredCharset(contentType: string | undefined): FileCharset | undefined {
  const charset = /;\s*charset\s*=\s*"?([\w-]+)/i.exec(contentType ?? '')?.[1]?.toLowerCase();
  if (charset === 'utf-8' || charset === 'utf8') return 'utf-8';
  if (charset === 'windows-1251' || charset === 'cp1251' || charset === 'x-cp1251') return 'windows-1251';
  return undefined;
}

/**
 * Windows-1251 bytes of Russian (and Ukrainian, Belarusian) text: the letters А–я, Ёё, Іі, Її, Єє, Ўў, Ґґ, and
 * the punctuation people type (« » № – — … „ “ ‘ ’ ° ± no-break space).
 */
const CP1251_TEXT = new Uint8Array(256);
for (let byte = 0xc0; byte <= 0xff; byte++) CP1251_TEXT[byte] = 1;
for (const byte of [
  0xa8, 0xb8, 0xb2, 0xb3, 0xaf, 0xbf, 0xaa, 0xba, 0xa1, 0xa2, 0xa5, 0xb4, 0xab, 0xbb, 0xb9, 0x96, 0x97, 0x85, 0x84, 0x93, 0x94, 0x91, 0x92,
  0xb0, 0xb1, 0xa0,
]) {
  CP1251_TEXT[byte] = 1;
}
/** Share of non-ASCII bytes that must be such text: random or binary bytes reach about two thirds. */
const CP1251_SHARE = 0.9;

/** True when bytes that are not UTF-8 read as Windows-1251 text: no control bytes, and almost every high byte a letter. */
function looksCp1251(bytes: Uint8Array): boolean {
  let high = 0;
  let text = 0;
  for (const byte of bytes) {
    if (byte < 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0d) return false;
    if (byte >= 0x80) {
      high++;
      text += CP1251_TEXT[byte];
    }
  }
  return high > 0 && text >= high * CP1251_SHARE;
}

/** The length of the bytes without an unfinished UTF-8 sequence at their end (its rest is in the next chunk). */
function completeLength(bytes: Buffer): number {
  for (let back = 1; back <= Math.min(3, bytes.length); back++) {
    const byte = bytes[bytes.length - back];
    if (byte < 0x80) return bytes.length;
    if (byte >= 0xc0) {
      const needed = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : 2;
      return needed > back ? bytes.length - back : bytes.length;
    }
  }
  return bytes.length;
}

/**
 * An imported file's bytes to text, chunk by chunk, for both CSV imports (handbooks and validations). The
 * encoding is the declared one, or found at the first chunk with a byte beyond ASCII (ASCII before it reads
 * the same in both): UTF-8 when the bytes are valid UTF-8, Windows-1251 when they read as Russian text,
 * otherwise the file is refused. Once UTF-8, any invalid sequence later refuses the file as well, and so does
 * U+FFFD in the text.
 */
export class FileTextDecoder {
  private charset: FileCharset | undefined;
  private readonly utf8 = new TextDecoder('utf-8', { fatal: true });
  private readonly cp1251 = new TextDecoder('windows-1251');
  /** An unfinished UTF-8 sequence held back while the encoding is still open. */
  private held: Buffer = Buffer.alloc(0);
  /** Lines decoded so far: where a refusal points. */
  private lines = 1;

  constructor(declared?: FileCharset) {
    this.charset = declared;
  }

  write(chunk: Buffer): string {
    if (this.charset === 'windows-1251') return this.checked(this.cp1251.decode(chunk, { stream: true }));
    if (this.charset === 'utf-8') return this.checked(this.decodeUtf8(chunk, true));
    const bytes = this.held.length ? Buffer.concat([this.held, chunk]) : chunk;
    const complete = bytes.subarray(0, completeLength(bytes));
    if (isAscii(complete)) {
      this.held = Buffer.from(bytes.subarray(complete.length));
      return this.checked(complete.toString('latin1'));
    }
    this.held = Buffer.alloc(0);
    if (isUtf8(complete)) this.charset = 'utf-8';
    else if (looksCp1251(complete)) this.charset = 'windows-1251';
    else throw new FileEncodingError(this.lines);
    return this.write(bytes);
  }

  end(): string {
    if (this.charset === 'windows-1251') return this.checked(this.cp1251.decode());
    if (this.charset === 'utf-8' || !this.held.length) return this.checked(this.decodeUtf8(undefined, false));
    // the file ended inside what began like a UTF-8 sequence: Windows-1251 if it reads so
    if (!looksCp1251(this.held)) throw new FileEncodingError(this.lines);
    return this.checked(this.cp1251.decode(this.held));
  }

  private decodeUtf8(chunk: Buffer | undefined, stream: boolean): string {
    try {
      return this.utf8.decode(chunk, { stream });
    } catch {
      throw new FileEncodingError(this.lines);
    }
  }

  private checked(text: string): string {
    const bad = text.indexOf('\uFFFD');
    let from = 0;
    const until = bad < 0 ? text.length : bad;
    for (let at = text.indexOf('\n', from); at >= 0 && at < until; at = text.indexOf('\n', from)) {
      this.lines++;
      from = at + 1;
    }
    if (bad >= 0) throw new FileEncodingError(this.lines);
    return text;
  }
}
