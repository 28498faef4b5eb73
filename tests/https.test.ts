import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { connect, type ClientHttp2Session, type IncomingHttpHeaders } from 'node:http2';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/server/config';
import { GEO_STREAM_PATH, serializeGeoSubscription } from '../src/shared/map';
import { selfSignedCertificate } from '../scripts/selfSignedCertificate';
import { startTestApp, type TestApp } from './helpers/testApp';

/** One HTTP/2 request; the answer's headers and, unless `firstChunk`, its whole body (else its first chunk). */
function h2(
  session: ClientHttp2Session,
  headers: Record<string, string>,
  body?: string,
  firstChunk = false,
): Promise<{ headers: IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const stream = session.request(headers);
    let answer: IncomingHttpHeaders = {};
    let text = '';
    stream.on('response', (h) => (answer = h));
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => {
      text += chunk;
      if (firstChunk) {
        stream.close();
        resolve({ headers: answer, body: text });
      }
    });
    stream.on('end', () => resolve({ headers: answer, body: text }));
    stream.on('error', reject);
    stream.end(body);
  });
}

describe('TLS settings', () => {
  it('takes the certificate and key together, and refuses one without the other', () => {
    expect(loadConfig({ TLS_CERT_FILE: '/etc/c.pem', TLS_KEY_FILE: '/etc/k.pem' }).tls).toEqual({
      certFile: '/etc/c.pem',
      keyFile: '/etc/k.pem',
    });
    expect(loadConfig({}).tls).toBeUndefined();
    expect(() => loadConfig({ TLS_CERT_FILE: '/etc/c.pem' })).toThrow('TLS_CERT_FILE and TLS_KEY_FILE go together');
    expect(() => loadConfig({ TLS_KEY_FILE: '/etc/k.pem' })).toThrow('TLS_CERT_FILE and TLS_KEY_FILE go together');
  });
});

// The transport does not depend on the database engine: the embedded one is enough.
describe('the server over HTTPS (TLS_CERT_FILE, TLS_KEY_FILE)', () => {
  let t: TestApp;
  let dir: string;
  let origin: string;
  let session: ClientHttp2Session;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tls-test-'));
    t = await startTestApp('pglite', { tls: selfSignedCertificate(dir) });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    origin = `https://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    session = connect(origin, { rejectUnauthorized: false });
  });
  afterAll(async () => {
    session?.close();
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers HTTP/2, with HSTS', async () => {
    const health = await h2(session, { ':path': '/api/health' });
    expect(health.headers[':status']).toBe(200);
    expect(health.headers['strict-transport-security']).toMatch(/max-age=\d+/);
  });

  it('logs in and streams the map over HTTP/2, without HTTP/1.1 connection headers', async () => {
    // Node drops a connection header on HTTP/2 with a process warning (once a process): none may be written
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.message);
    process.on('warning', onWarning);
    const login = await h2(
      session,
      { ':method': 'POST', ':path': '/api/v1/auth/login', 'content-type': 'application/json' },
      JSON.stringify({ username: 'admin', password: 'admin123' }),
    );
    expect(login.headers[':status']).toBe(200);
    const { token } = JSON.parse(login.body) as { token: string };
    const q = serializeGeoSubscription({ bounds: [59.8, 30.1, 60.1, 30.6], zoom: 10, vehicles: [] });
    const stream = await h2(
      session,
      { ':path': `${GEO_STREAM_PATH}?q=${encodeURIComponent(q)}`, authorization: `Bearer ${token}` },
      undefined,
      true,
    );
    expect(stream.headers[':status']).toBe(200);
    expect(stream.headers['content-type']).toMatch(/^text\/event-stream/);
    expect(stream.headers.connection).toBeUndefined();
    expect(stream.body).toMatch(/^event: hello\ndata: \{"streamId":"[0-9a-f-]{36}"/);
    await new Promise((resolve) => setImmediate(resolve));
    process.off('warning', onWarning);
    expect(warnings.filter((message) => /connection header/.test(message))).toEqual([]);
  });

  it('refuses a wrong password over HTTP/2 as over HTTP/1.1', async () => {
    const login = await h2(
      session,
      { ':method': 'POST', ':path': '/api/v1/auth/login', 'content-type': 'application/json' },
      JSON.stringify({ username: 'admin', password: 'wrong-password' }),
    );
    expect(login.headers[':status']).toBe(400);
    expect(JSON.parse(login.body)).toEqual({ messages: ['password_incorrect'] });
  });

  it('still answers HTTP/1.1 clients over TLS', async () => {
    const status = await new Promise<number | undefined>((resolve, reject) => {
      httpsRequest(`${origin}/api/health`, { rejectUnauthorized: false }, (response) => {
        response.resume();
        resolve(response.statusCode);
      })
        .on('error', reject)
        .end();
    });
    expect(status).toBe(200);
  });
});
