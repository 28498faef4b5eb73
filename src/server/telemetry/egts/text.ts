import { CHS } from './commands';

/** CP1251 (the EGTS default charset, CHS 0) beyond ASCII: Cyrillic and the punctuation a dispatcher types. */
const CP1251_EXTRA = new Map<number, number>([
  [0x0401, 0xa8],
  [0x0451, 0xb8],
  [0x00ab, 0xab],
  [0x00bb, 0xbb],
  [0x2014, 0x97],
  [0x2013, 0x96],
  [0x2116, 0xb9],
  [0x00a0, 0xa0],
  [0x2026, 0x85],
  [0x201c, 0x93],
  [0x201d, 0x94],
  [0x201e, 0x84],
  [0x00b0, 0xb0],
]);

/** Text as CP1251 bytes; a character the charset lacks becomes '?'. */
export function encodeCp1251(text: string): Buffer {
  const out = Buffer.alloc(text.length);
  let i = 0;
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    if (code < 0x80) out[i++] = code;
    else if (code >= 0x0410 && code <= 0x044f) out[i++] = code - 0x0410 + 0xc0;
    else out[i++] = CP1251_EXTRA.get(code) ?? 0x3f;
  }
  return out.subarray(0, i);
}

const cp1251 = new TextDecoder('windows-1251');
const latin1 = new TextDecoder('latin1');

/** A message's DT as text by its CHS (CP1251 when absent, UCS-2 big-endian, ASCII and Latin-1 as such). */
export function decodeText(data: Buffer, chs: number | null): string {
  if (chs === CHS.UCS2) {
    const swapped = Buffer.from(data.subarray(0, data.length & ~1));
    swapped.swap16();
    return swapped.toString('utf16le');
  }
  if (chs === CHS.ASCII || chs === CHS.LATIN1) return latin1.decode(data);
  return cp1251.decode(data);
}
