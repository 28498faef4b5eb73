import { imageType } from '../tiles/tileSource';

/** Larger than any phone camera writes; a header claiming more is forged or broken. */
export const IMAGE_SIDE_MAX = 20_000;
/**
 * Markup that makes a browser run or render a file as a page. An uploaded photo is served back to people, so
 * a page hidden in it (a comment, a text chunk) makes a polyglot, whatever the image around it. Text blocks
 * are searched for any tag; the compressed pixels, where short tags turn up by chance, only for long ones.
 */
const MARKUP = /<\s*[!/?]?\s*[a-z]|javascript:/i;
const MARKUP_ANYWHERE = /<\s*(?:script|iframe|object|embed|!doctype|html[\s>]|body[\s>]|svg[\s>])|javascript:/i;

/**
 * The media type of a real image, or null: the signature is not enough. The structure is walked to its end
 * marker (JPEG segments to EOI, PNG chunks with their CRCs to IEND, GIF blocks to the trailer, WebP's RIFF
 * size), the dimensions must be sane, nothing may follow the end, and no markup may hide anywhere in it.
 */
export function checkedImageType(bytes: Buffer): string | null {
  const type = imageType(bytes);
  if (!type) return null;
  const texts: Buffer[] = [];
  const whole =
    type === 'image/jpeg'
      ? jpegWhole(bytes, texts)
      : type === 'image/png'
        ? pngWhole(bytes, texts)
        : type === 'image/gif'
          ? gifWhole(bytes, texts)
          : webpWhole(bytes);
  if (!whole || texts.some((text) => MARKUP.test(text.toString('latin1'))) || MARKUP_ANYWHERE.test(bytes.toString('latin1'))) return null;
  return type;
}

const saneSize = (width: number, height: number) => width >= 1 && height >= 1 && width <= IMAGE_SIDE_MAX && height <= IMAGE_SIDE_MAX;

/** JPEG: markers from SOI; a frame header (SOF) with sane sides before the scan; EOI as the last two bytes. Comments are text. */
function jpegWhole(b: Buffer, texts: Buffer[]): boolean {
  let at = 2;
  let sized = false;
  while (at + 4 <= b.length) {
    if (b[at] !== 0xff) return false;
    const marker = b[at + 1];
    if (marker === 0xff) {
      at++; // fill byte
      continue;
    }
    if (marker === 0xd8 || marker === 0xd9 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) return false;
    const length = b.readUInt16BE(at + 2);
    if (length < 2 || at + 2 + length > b.length) return false;
    if (marker === 0xfe) texts.push(b.subarray(at + 4, at + 2 + length));
    const isFrame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (isFrame) {
      if (length < 8) return false;
      sized = saneSize(b.readUInt16BE(at + 7), b.readUInt16BE(at + 5));
      if (!sized) return false;
    }
    if (marker === 0xda) return sized && b.length >= at + 2 + length + 2 && b[b.length - 2] === 0xff && b[b.length - 1] === 0xd9;
    at += 2 + length;
  }
  return false;
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = CRC_TABLE[(crc ^ byte) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

/** PNG: IHDR first with sane sides, every chunk whole with its CRC right, at least one IDAT, IEND last. tEXt and iTXt are text. */
function pngWhole(b: Buffer, texts: Buffer[]): boolean {
  let at = 8;
  let first = true;
  let data = false;
  while (at + 12 <= b.length) {
    const length = b.readUInt32BE(at);
    const type = b.toString('latin1', at + 4, at + 8);
    const end = at + 12 + length;
    if (end > b.length || !/^[A-Za-z]{4}$/.test(type)) return false;
    if (crc32(b.subarray(at + 4, at + 8 + length)) !== b.readUInt32BE(at + 8 + length)) return false;
    if (first && (type !== 'IHDR' || length !== 13 || !saneSize(b.readUInt32BE(at + 8), b.readUInt32BE(at + 12)))) return false;
    first = false;
    if (type === 'IDAT') data = true;
    if (type === 'tEXt' || type === 'iTXt') texts.push(b.subarray(at + 8, at + 8 + length));
    if (type === 'IEND') return data && end === b.length;
    at = end;
  }
  return false;
}

/**
 * GIF: screen descriptor with sane sides, colour tables, then blocks (images, extensions) up to the trailer at
 * the end. Comment and plain-text extensions are text.
 */
function gifWhole(b: Buffer, texts: Buffer[]): boolean {
  const version = b.toString('latin1', 0, 6);
  if ((version !== 'GIF87a' && version !== 'GIF89a') || b.length < 14) return false;
  if (!saneSize(b.readUInt16LE(6), b.readUInt16LE(8))) return false;
  let at = 13 + colourTable(b[10]);
  let images = 0;
  while (at < b.length) {
    const block = b[at];
    if (block === 0x3b) return images > 0 && at === b.length - 1;
    if (block === 0x21) {
      const next = subBlocks(b, at + 2);
      if (next < 0) return false;
      if (b[at + 1] === 0xfe || b[at + 1] === 0x01) texts.push(b.subarray(at + 2, next));
      at = next;
    } else if (block === 0x2c) {
      if (at + 10 > b.length || !saneSize(b.readUInt16LE(at + 5), b.readUInt16LE(at + 7))) return false;
      // descriptor (10), its own colour table, the LZW code size byte, then the data sub-blocks
      const next = subBlocks(b, at + 10 + colourTable(b[at + 9]) + 1);
      if (next < 0) return false;
      images++;
      at = next;
    } else {
      return false;
    }
  }
  return false;
}

/** Bytes of a GIF colour table announced by a flags byte (none when its top bit is clear). */
const colourTable = (flags: number) => (flags & 0x80 ? 3 * 2 ** ((flags & 7) + 1) : 0);

/** Where a chain of GIF sub-blocks starting at `at` ends (after its zero terminator), -1 when cut short. */
function subBlocks(b: Buffer, at: number): number {
  while (at < b.length) {
    const size = b[at];
    if (size === 0) return at + 1;
    at += size + 1;
  }
  return -1;
}

/** WebP: the RIFF size is the file's, and its first chunk is an image (VP8, VP8L or VP8X) with sane sides. */
function webpWhole(b: Buffer): boolean {
  if (b.length < 30 || b.readUInt32LE(4) + 8 !== b.length) return false;
  const chunk = b.toString('latin1', 12, 16);
  if (chunk === 'VP8 ')
    return b[23] === 0x9d && b[24] === 0x01 && b[25] === 0x2a && saneSize(b.readUInt16LE(26) & 0x3fff, b.readUInt16LE(28) & 0x3fff);
  if (chunk === 'VP8L') {
    if (b[20] !== 0x2f) return false;
    const bits = b.readUInt32LE(21);
    return saneSize((bits & 0x3fff) + 1, ((bits >>> 14) & 0x3fff) + 1);
  }
  if (chunk === 'VP8X') return saneSize(b.readUIntLE(24, 3) + 1, b.readUIntLE(27, 3) + 1);
  return false;
}
