import { describe, expect, it } from 'vitest';
import { authPacket } from '../src/server/telemetry/egts/terminalPackets';
import { ProxyHeaderReader, proxyV1, proxyV2, readProxyHeader } from '../src/server/telemetry/egts/proxyProtocol';

const SIGNATURE = Buffer.from('0d0a0d0a000d0a515549540a', 'hex');
const TERMINAL = { address: '203.0.113.7', port: 40123 };
const LISTENER = { address: '10.0.0.2', port: 5163 };

/** A v2 head by hand: signature, version/command, family/protocol, length; then the block. */
const v2 = (versionCommand: number, familyProtocol: number, block: Buffer) => {
  const head = Buffer.concat([SIGNATURE, Buffer.from([versionCommand, familyProtocol, 0, 0])]);
  head.writeUInt16BE(block.length, 14);
  return Buffer.concat([head, block]);
};

describe('PROXY protocol header', () => {
  it('reads a v1 TCP4 line', () => {
    const header = readProxyHeader(Buffer.from('PROXY TCP4 203.0.113.7 10.0.0.2 40123 5163\r\n'));
    expect(header).toEqual({ kind: 'header', version: 1, source: TERMINAL, rest: Buffer.alloc(0) });
    expect(readProxyHeader(proxyV1(TERMINAL, LISTENER))).toMatchObject({ kind: 'header', source: TERMINAL });
  });

  it('reads a v1 TCP6 line, the address in its usual form', () => {
    const header = readProxyHeader(Buffer.from('PROXY TCP6 2001:0db8:0000:0000:0000:0000:0000:0001 ::1 65535 5163\r\n'));
    expect(header).toMatchObject({ kind: 'header', version: 1, source: { address: '2001:db8::1', port: 65535 } });
  });

  it('keeps the connection’s own address for v1 UNKNOWN', () => {
    const header = readProxyHeader(Buffer.from('PROXY UNKNOWN ffff::1 ffff::2 1 2\r\nrest'));
    expect(header).toEqual({ kind: 'header', version: 1, rest: Buffer.from('rest') });
    expect(readProxyHeader(Buffer.from('PROXY UNKNOWN\r\n'))).toMatchObject({ kind: 'header', version: 1 });
  });

  it('reads a v2 PROXY header over TCP/IPv4 and skips its TLVs', () => {
    const tlv = Buffer.from([0x04, 0x00, 0x03, 0x61, 0x62, 0x63]); // PP2_TYPE_NOOP with 3 bytes
    const header = readProxyHeader(proxyV2(TERMINAL, LISTENER, tlv));
    expect(header).toEqual({ kind: 'header', version: 2, source: TERMINAL, rest: Buffer.alloc(0) });
    // the bytes by hand: 203.0.113.7 → 10.0.0.2, 40123 → 5163
    const block = Buffer.from([203, 0, 113, 7, 10, 0, 0, 2, 0x9c, 0xbb, 0x14, 0x2b]);
    expect(readProxyHeader(v2(0x21, 0x11, block))).toMatchObject({ source: TERMINAL });
  });

  it('reads a v2 PROXY header over TCP/IPv6', () => {
    const source = { address: '2001:db8::42', port: 1 };
    const header = readProxyHeader(proxyV2(source, { address: '2001:db8::1', port: 5163 }));
    expect(header).toMatchObject({ kind: 'header', version: 2, source });
    const block = Buffer.alloc(36);
    block.writeUInt16BE(0xfe80, 0);
    block[15] = 9;
    block.writeUInt16BE(7000, 32);
    expect(readProxyHeader(v2(0x21, 0x21, block))).toMatchObject({ source: { address: 'fe80::9', port: 7000 } });
  });

  it('keeps the connection’s own address for the v2 LOCAL command (health checks) and UNSPEC', () => {
    expect(readProxyHeader(proxyV2())).toEqual({ kind: 'header', version: 2, rest: Buffer.alloc(0) });
    // LOCAL ignores whatever family and block it carries
    expect(readProxyHeader(v2(0x20, 0x11, Buffer.alloc(12, 1)))).toEqual({ kind: 'header', version: 2, rest: Buffer.alloc(0) });
    expect(readProxyHeader(v2(0x21, 0x00, Buffer.alloc(0)))).toEqual({ kind: 'header', version: 2, rest: Buffer.alloc(0) });
    // a Unix socket's path is no terminal's address either
    expect(readProxyHeader(v2(0x21, 0x31, Buffer.alloc(216)))).toEqual({ kind: 'header', version: 2, rest: Buffer.alloc(0) });
  });

  it('refuses garbage: EGTS straight away, other text, bad fields, bad versions and commands', () => {
    const invalid = (bytes: Buffer | string) => readProxyHeader(Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes)).kind;
    expect(invalid(authPacket(0, 0, { tid: 7000001 }))).toBe('invalid');
    expect(invalid('GET / HTTP/1.1\r\n')).toBe('invalid');
    expect(invalid('PROXY TCP4 203.0.113.7 10.0.0.2 40123\r\n')).toBe('invalid');
    expect(invalid('PROXY TCP4 203.0.113.999 10.0.0.2 40123 5163\r\n')).toBe('invalid');
    expect(invalid('PROXY TCP4 2001:db8::1 10.0.0.2 40123 5163\r\n')).toBe('invalid');
    expect(invalid('PROXY TCP4 203.0.113.7 10.0.0.2 65536 5163\r\n')).toBe('invalid');
    expect(invalid('PROXY TCP4 203.0.113.7 10.0.0.2 040123 5163\r\n')).toBe('invalid');
    expect(invalid('PROXY UDP4 203.0.113.7 10.0.0.2 40123 5163\r\n')).toBe('invalid');
    expect(invalid('PROXY TCP4 203.0.113.7  10.0.0.2 40123 5163\r\n')).toBe('invalid');
    expect(invalid(`PROXY ${'x'.repeat(120)}`)).toBe('invalid');
    expect(invalid(Buffer.concat([Buffer.from('PROXY TCP4 1.2.3.4 5.6.7.8 1 2'), Buffer.from([0xff]), Buffer.from('\r\n')]))).toBe(
      'invalid',
    );
    expect(invalid(v2(0x11, 0x11, Buffer.alloc(12)))).toBe('invalid'); // version 1 in a binary head
    expect(invalid(v2(0x22, 0x11, Buffer.alloc(12)))).toBe('invalid'); // command 2
    expect(invalid(v2(0x21, 0x41, Buffer.alloc(12)))).toBe('invalid'); // family 4
    expect(invalid(v2(0x21, 0x11, Buffer.alloc(8)))).toBe('invalid'); // IPv4 block too short
    expect(invalid(v2(0x21, 0x21, Buffer.alloc(12)))).toBe('invalid'); // IPv6 block too short
    const nearly = Buffer.from(SIGNATURE);
    nearly[11] = 0x0b;
    expect(invalid(Buffer.concat([nearly, Buffer.alloc(8)]))).toBe('invalid');
  });

  it('waits for a header split across packets, byte by byte', () => {
    for (const whole of [
      proxyV1(TERMINAL, LISTENER),
      proxyV2(TERMINAL, LISTENER),
      proxyV2({ address: '::1', port: 9 }, { address: '::2', port: 5163 }),
    ]) {
      const reader = new ProxyHeaderReader();
      for (let i = 0; i < whole.length - 1; i++) expect(reader.push(whole.subarray(i, i + 1))).toEqual({ kind: 'more' });
      expect(reader.push(whole.subarray(-1))).toMatchObject({ kind: 'header' });
    }
    // "PROX" is still possibly a header; "PROXZ" no longer
    expect(new ProxyHeaderReader().push(Buffer.from('PROX'))).toEqual({ kind: 'more' });
    expect(new ProxyHeaderReader().push(Buffer.from('PROXZ'))).toMatchObject({ kind: 'invalid' });
    const reader = new ProxyHeaderReader();
    expect(reader.push(SIGNATURE.subarray(0, 5))).toEqual({ kind: 'more' });
    expect(reader.push(Buffer.from([0x0a]))).toMatchObject({ kind: 'invalid' });
  });

  it('gives back the EGTS bytes that came in the same chunk as the header', () => {
    const egts = authPacket(0, 0, { tid: 7000001 });
    for (const header of [proxyV1(TERMINAL, LISTENER), proxyV2(TERMINAL, LISTENER)]) {
      expect(readProxyHeader(Buffer.concat([header, egts]))).toEqual({
        kind: 'header',
        version: header[0] === 0x50 ? 1 : 2,
        source: TERMINAL,
        rest: egts,
      });
      // and split: the header's tail with the start of the packet
      const reader = new ProxyHeaderReader();
      const all = Buffer.concat([header, egts]);
      expect(reader.push(all.subarray(0, header.length - 3))).toEqual({ kind: 'more' });
      expect(reader.push(all.subarray(header.length - 3))).toMatchObject({ source: TERMINAL, rest: egts });
    }
  });
});
