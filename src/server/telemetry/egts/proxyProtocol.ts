import { isIPv4, isIPv6, SocketAddress } from 'node:net';

/**
 * The PROXY protocol header (HAProxy's «The PROXY protocol», versions 1 and 2) a TCP load balancer puts before a
 * connection's own bytes to say whose connection it is. Only the header is read here: the source address and
 * port, the rest of the connection is the terminal's. Version 1 is one text line of at most 107 bytes; version 2
 * is a 16-byte binary head (signature, version and command, family, length) and an address block, TLVs skipped.
 */

/** The terminal's end of the connection, as the load balancer saw it. */
export interface ProxiedSource {
  address: string;
  port: number;
}

export type ProxyHeaderResult =
  /** More bytes are needed to tell. */
  | { kind: 'more' }
  /**
   * A whole valid header. `source` is absent when the header says to keep the connection's own ends (version 2's
   * LOCAL command, HAProxy's health checks; version 1's UNKNOWN; an address family other than TCP/UDP over IP).
   * `rest` is what followed the header in the bytes read so far: the connection's own first bytes.
   */
  | { kind: 'header'; version: 1 | 2; source?: ProxiedSource; rest: Buffer }
  /** Not a PROXY header: the connection is to be closed. */
  | { kind: 'invalid'; reason: string };

const V1_PREFIX = Buffer.from('PROXY ', 'latin1');
/** "PROXY UNKNOWN" plus two IPv6 addresses, two ports, the spaces and CRLF: the longest line there may be. */
const V1_MAX_BYTES = 107;
const V2_SIGNATURE = Buffer.from([0x0d, 0x0a, 0x0d, 0x0a, 0x00, 0x0d, 0x0a, 0x51, 0x55, 0x49, 0x54, 0x0a]);
const V2_HEAD_BYTES = 16;

/** `buf` could still become `prefix` (what there is of it agrees). */
const agreesWith = (buf: Buffer, prefix: Buffer) =>
  buf.subarray(0, prefix.length).equals(prefix.subarray(0, Math.min(buf.length, prefix.length)));

const PORT = /^(0|[1-9][0-9]{0,4})$/;

/** A port of a version 1 line: decimal, no leading zero, 0 to 65535. */
function portOf(text: string): number | undefined {
  if (!PORT.test(text)) return undefined;
  const port = Number(text);
  return port <= 65535 ? port : undefined;
}

function parseV1(line: string): ProxyHeaderResult {
  const parts = line.split(' ');
  // "PROXY UNKNOWN" may carry anything after it: the receiver keeps the connection's own ends.
  if (parts[1] === 'UNKNOWN') return { kind: 'header', version: 1, rest: Buffer.alloc(0) };
  if (parts.length !== 6) return { kind: 'invalid', reason: 'PROXY v1: fields' };
  const [, family, source, destination, sourcePort, destinationPort] = parts;
  const isIp = family === 'TCP4' ? isIPv4 : family === 'TCP6' ? isIPv6 : undefined;
  if (!isIp) return { kind: 'invalid', reason: `PROXY v1: protocol ${family.slice(0, 8)}` };
  if (!isIp(source) || !isIp(destination)) return { kind: 'invalid', reason: 'PROXY v1: address' };
  const port = portOf(sourcePort);
  if (port === undefined || portOf(destinationPort) === undefined) return { kind: 'invalid', reason: 'PROXY v1: port' };
  return { kind: 'header', version: 1, source: { address: family === 'TCP6' ? normalIPv6(source) : source, port }, rest: Buffer.alloc(0) };
}

const normalIPv6 = (address: string) => new SocketAddress({ address, family: 'ipv6' }).address;

function ipv6Of(bytes: Buffer): string {
  const groups: string[] = [];
  for (let i = 0; i < 16; i += 2) groups.push(bytes.readUInt16BE(i).toString(16));
  return normalIPv6(groups.join(':'));
}

/** Version 2 once its head and address block are all there (`buf` holds exactly them). */
function parseV2(buf: Buffer): ProxyHeaderResult {
  const versionCommand = buf[12];
  if (versionCommand >> 4 !== 2) return { kind: 'invalid', reason: `PROXY v2: version ${versionCommand >> 4}` };
  const command = versionCommand & 0x0f;
  if (command > 1) return { kind: 'invalid', reason: `PROXY v2: command ${command}` };
  const familyProtocol = buf[13];
  const family = familyProtocol >> 4;
  const protocol = familyProtocol & 0x0f;
  if (family > 3 || protocol > 2) return { kind: 'invalid', reason: `PROXY v2: family ${familyProtocol}` };
  const block = buf.subarray(V2_HEAD_BYTES);
  const header = (source?: ProxiedSource): ProxyHeaderResult => ({ kind: 'header', version: 2, source, rest: Buffer.alloc(0) });
  // LOCAL: the load balancer's own connection (a health check); the family and block are ignored.
  if (command === 0) return header();
  // UNSPEC, Unix sockets, or a protocol not given: the connection's own ends.
  if (protocol === 0 || family === 0 || family === 3) return header();
  if (family === 1) {
    if (block.length < 12) return { kind: 'invalid', reason: 'PROXY v2: IPv4 block too short' };
    return header({ address: `${block[0]}.${block[1]}.${block[2]}.${block[3]}`, port: block.readUInt16BE(8) });
  }
  if (block.length < 36) return { kind: 'invalid', reason: 'PROXY v2: IPv6 block too short' };
  return header({ address: ipv6Of(block.subarray(0, 16)), port: block.readUInt16BE(32) });
}

/**
 * Reads a PROXY header from the first bytes of a connection, chunk by chunk as they arrive: `push` answers
 * `more` until the header is whole (or proven not one). Nothing past the header is consumed: it comes back as
 * `rest`.
 */
export class ProxyHeaderReader {
  private buffered: Buffer = Buffer.alloc(0);

  push(chunk: Buffer): ProxyHeaderResult {
    const buf = this.buffered.length ? Buffer.concat([this.buffered, chunk]) : chunk;
    this.buffered = buf;
    const result = readProxyHeader(buf);
    if (result.kind !== 'more') this.buffered = Buffer.alloc(0);
    return result;
  }
}

/** The header at the start of `buf` (see ProxyHeaderReader). */
export function readProxyHeader(buf: Buffer): ProxyHeaderResult {
  if (buf.length === 0) return { kind: 'more' };
  if (agreesWith(buf, V2_SIGNATURE)) {
    if (buf.length < V2_HEAD_BYTES) return { kind: 'more' };
    const end = V2_HEAD_BYTES + buf.readUInt16BE(14);
    if (buf.length < end) return { kind: 'more' };
    const result = parseV2(buf.subarray(0, end));
    return result.kind === 'header' ? { ...result, rest: buf.subarray(end) } : result;
  }
  if (agreesWith(buf, V1_PREFIX)) {
    const crlf = buf.subarray(0, V1_MAX_BYTES).indexOf('\r\n', 0, 'latin1');
    if (crlf < 0) return buf.length >= V1_MAX_BYTES ? { kind: 'invalid', reason: 'PROXY v1: no CRLF within 107 bytes' } : { kind: 'more' };
    const line = buf.subarray(0, crlf).toString('latin1');
    // printable US-ASCII only
    if (!/^[\x20-\x7e]*$/.test(line)) return { kind: 'invalid', reason: 'PROXY v1: not text' };
    const result = parseV1(line);
    return result.kind === 'header' ? { ...result, rest: buf.subarray(crlf + 2) } : result;
  }
  return { kind: 'invalid', reason: 'no PROXY header' };
}

/** A PROXY v1 line, for tests and tools: what HAProxy's `send-proxy` sends. */
export function proxyV1(source: ProxiedSource, destination: ProxiedSource): Buffer {
  const family = isIPv6(source.address) ? 'TCP6' : 'TCP4';
  return Buffer.from(`PROXY ${family} ${source.address} ${destination.address} ${source.port} ${destination.port}\r\n`, 'latin1');
}

/** A PROXY v2 header (PROXY command over TCP, or LOCAL without `source`): what HAProxy's `send-proxy-v2` sends. */
export function proxyV2(source?: ProxiedSource, destination?: ProxiedSource, tlvs: Buffer = Buffer.alloc(0)): Buffer {
  if (!source || !destination) {
    const head = Buffer.concat([V2_SIGNATURE, Buffer.from([0x20, 0x00, 0, 0])]);
    head.writeUInt16BE(tlvs.length, 14);
    return Buffer.concat([head, tlvs]);
  }
  const six = isIPv6(source.address);
  const block = Buffer.alloc(six ? 36 : 12);
  const put = (address: string, at: number) => {
    if (!six) address.split('.').forEach((octet, i) => (block[at + i] = Number(octet)));
    else {
      const full = new SocketAddress({ address, family: 'ipv6' }).address;
      const [head, tail = ''] = full.split('::');
      const left = head ? head.split(':') : [];
      const right = full.includes('::') && tail ? tail.split(':') : [];
      const groups = full.includes('::') ? [...left, ...Array(8 - left.length - right.length).fill('0'), ...right] : left;
      groups.forEach((group, i) => block.writeUInt16BE(parseInt(group, 16), at + i * 2));
    }
  };
  put(source.address, 0);
  put(destination.address, six ? 16 : 4);
  block.writeUInt16BE(source.port, six ? 32 : 8);
  block.writeUInt16BE(destination.port, six ? 34 : 10);
  const head = Buffer.concat([V2_SIGNATURE, Buffer.from([0x21, six ? 0x21 : 0x11, 0, 0])]);
  head.writeUInt16BE(block.length + tlvs.length, 14);
  return Buffer.concat([head, block, tlvs]);
}
