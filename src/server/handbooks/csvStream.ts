import { Readable, Transform, type TransformCallback } from 'node:stream';
import Papa from 'papaparse';
import { CSV_DELIMITER } from '../../shared/handbooks/csv';
import { MSG } from '../../shared/handbooks/messages';
import { fail } from '../http/errors';
import { ImportFailedError } from './errorReplies';
import { FileTextDecoder, type FileCharset } from './textDecoding';

/** Largest file the streamed import reads; beyond it the upload is refused (413). */
export const IMPORT_MAX_BYTES = 2 * 1024 ** 3;
/**
 * Longest record, in characters: far above any row with a district's border, and a bound on what an
 * unterminated quote (which runs to the end of the file) makes the reader hold.
 */
export const RECORD_MAX_CHARS = 4 * 1024 ** 2;

/** The import refused at one record of the file (line = its number, the header being 1). */
const recordError = (line: number, message: string) => new ImportFailedError([{ row: line, column: '', message }], 0);

/**
 * Bytes to text (FileTextDecoder: UTF-8 or Windows-1251, a character split between two network chunks kept
 * whole, which papaparse decoding each chunk on its own would break), counting bytes against the cap.
 */
class FileDecode extends Transform {
  private readonly decoder: FileTextDecoder;
  private bytes = 0;

  constructor(
    private readonly maxBytes: number,
    charset: FileCharset | undefined,
  ) {
    super({ decodeStrings: true, readableObjectMode: true });
    this.decoder = new FileTextDecoder(charset);
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.bytes += chunk.length;
    if (this.bytes > this.maxBytes) {
      done(fail(413, 'payload_too_large'));
      return;
    }
    this.decoded(() => this.decoder.write(chunk), done);
  }

  override _flush(done: TransformCallback): void {
    this.decoded(() => this.decoder.end(), done);
  }

  private decoded(decode: () => string, done: TransformCallback): void {
    let text: string;
    try {
      text = decode();
    } catch (error) {
      done(error as Error);
      return;
    }
    done(null, text);
  }
}

/** Newline of a file, from its first chunk: CRLF (Excel) or LF. */
function guessNewline(text: string): '\r\n' | '\n' {
  const lf = text.indexOf('\n');
  return lf > 0 && text[lf - 1] === '\r' ? '\r\n' : '\n';
}

/**
 * The complete records of a text without any quote character, and where its unfinished last line starts:
 * what papaparse gives for such a text (a record per line, a cell per separator), with the native string
 * splits, four to five times faster; papaparse's per-character scanner took most of a validation import's
 * parsing time. `last`: the text is the end of the file (its last line has no newline, and is a record).
 */
function splitPlain(text: string, newline: string, last: boolean, delimiter: string): { data: string[][]; cursor: number } {
  const end = last ? text.length : text.lastIndexOf(newline);
  if (end < 0) return { data: [], cursor: 0 };
  const lines = text.slice(0, end).split(newline);
  const data = new Array<string[]>(lines.length);
  for (let i = 0; i < lines.length; i++) data[i] = lines[i].split(delimiter);
  return { data, cursor: last ? end : end + newline.length };
}

/**
 * The records of a semicolon-separated file, a batch per network chunk, read as the consumer asks for
 * them (async iteration is the backpressure), so a file of any size goes through in bounded memory.
 * papaparse's low-level Parser does the CSV work the way its own chunk streamer does (the unfinished last
 * line waits for the next chunk); its Node stream mode is not used because its pause/resume polls on a
 * 3 ms timer and caps an import at a few thousand rows per second. A chunk without any quote (the usual
 * machine-written file) is split natively instead (splitPlain). A BOM at the start is dropped. `charset`: the
 * one the upload declares; otherwise found in the file (textDecoding.ts). The handbooks' files are
 * semicolon-separated; GTFS feeds take a comma.
 */
export async function* csvBatches(
  source: Readable,
  charset?: FileCharset,
  maxBytes = IMPORT_MAX_BYTES,
  delimiter = CSV_DELIMITER,
): AsyncGenerator<string[][]> {
  const decode = new FileDecode(maxBytes, charset);
  source.once('error', (error) => decode.destroy(error));
  // A client that goes away mid-upload ends the stream without 'end': stop waiting for more records.
  source.once('close', () => {
    if (!source.readableEnded) decode.destroy(new Error('upload aborted'));
  });
  source.pipe(decode);
  let parser: Papa.Parser | undefined;
  let newline: '\r\n' | '\n' = '\n';
  let partial = '';
  let records = 0;
  for await (const chunk of decode) {
    let text = partial + String(chunk);
    if (!parser) {
      if (text.startsWith('\uFEFF')) text = text.slice(1);
      newline = guessNewline(text);
      parser = new Papa.Parser({ delimiter, newline });
    }
    const results = text.includes('"') ? (parser.parse(text, 0, true) as Papa.ParseResult<string[]>) : undefined;
    const { data, cursor } = results ? { data: results.data, cursor: results.meta.cursor } : splitPlain(text, newline, false, delimiter);
    partial = text.slice(cursor);
    records += data.length;
    if (partial.length > RECORD_MAX_CHARS) {
      decode.destroy();
      throw recordError(records + 1, MSG.recordTooLong);
    }
    if (data.length) yield data;
  }
  if (partial && !partial.includes('"')) {
    yield splitPlain(partial, parser ? newline : guessNewline(partial), true, delimiter).data;
  } else if (partial) {
    parser ??= new Papa.Parser({ delimiter, newline: guessNewline(partial) });
    const results = parser.parse(partial, 0, false) as Papa.ParseResult<string[]>;
    // Only the last record can lack its closing quote: it swallowed everything after it.
    const open = results.errors.find((error) => error.code === 'MissingQuotes');
    if (open) throw recordError(records + (open.row ?? 0) + 1, MSG.unterminatedQuote);
    if (results.data.length) yield results.data;
  }
}

/** The records one by one (small files: dispatch assignments). */
export async function* csvRecords(source: Readable, charset?: FileCharset): AsyncGenerator<string[]> {
  for await (const batch of csvBatches(source, charset)) yield* batch;
}

/** A JSON body's csv text as the same kind of stream. */
export const textSource = (text: string): Readable => Readable.from([Buffer.from(text, 'utf8')]);

/** An empty line of the file (papaparse gives one empty cell). */
export const isEmptyRecord = (cells: string[]): boolean => cells.length === 0 || (cells.length === 1 && cells[0].trim() === '');
