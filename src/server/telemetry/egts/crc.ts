/**
 * Checksums of the EGTS transport layer (ГОСТ 33472-2015, annex on checksum calculation):
 * HCS is CRC-8 (poly 0x31, init 0xFF, no reflection, no final XOR) over the header bytes before it;
 * SFRCS is CRC-16 CCITT (poly 0x1021, init 0xFFFF, no reflection, no final XOR) over SFRD.
 * Table-driven: the 16-bit one runs for every byte every terminal sends.
 */
const CRC8_TABLE = new Uint8Array(256);
const CRC16_TABLE = new Uint16Array(256);
for (let n = 0; n < 256; n++) {
  let c8 = n;
  for (let bit = 0; bit < 8; bit++) c8 = c8 & 0x80 ? ((c8 << 1) ^ 0x31) & 0xff : (c8 << 1) & 0xff;
  CRC8_TABLE[n] = c8;
  let c16 = n << 8;
  for (let bit = 0; bit < 8; bit++) c16 = c16 & 0x8000 ? ((c16 << 1) ^ 0x1021) & 0xffff : (c16 << 1) & 0xffff;
  CRC16_TABLE[n] = c16;
}

export function crc8(data: Uint8Array, start = 0, end = data.length): number {
  let crc = 0xff;
  for (let i = start; i < end; i++) crc = CRC8_TABLE[crc ^ data[i]];
  return crc;
}

export function crc16(data: Uint8Array, start = 0, end = data.length): number {
  let crc = 0xffff;
  for (let i = start; i < end; i++) crc = ((crc << 8) & 0xffff) ^ CRC16_TABLE[((crc >> 8) ^ data[i]) & 0xff];
  return crc;
}
