import type { FastifyRequest } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tableChecksums } from './helpers/checksums';
import { redact } from '../src/server/journals/redact';
import { ENGINES } from './helpers/engines';
import { startTestApp, type TestApp } from './helpers/testApp';
import { MODULES_OFF_BY_DEFAULT } from '../src/shared/modules';
import { loadConfig } from '../src/server/config';
import { isErrorCode } from '../src/shared/errors';
import { pngChunk, tinyGif, tinyJpeg, tinyPng } from './fixtures/images';

/**
 * Bad input that once got through or failed as a 500 ("Hardening, second round", item 5): malformed uploads,
 * polyglot photos. Each is refused with a 4xx and a catalogue code, and nothing is stored.
 */
describe.each(ENGINES)('hostile uploads on %s', (engine) => {
  let t: TestApp;
  let controller: string;
  let taskId: number;

  beforeAll(async () => {
    t = await startTestApp(engine, { switches: loadConfig({ DEMO_DATA: 'false', MODULES: 'bc' }).switches });
    controller = await t.login('controller', 'controller123');
    const worker = await t.app.inject({ method: 'GET', url: '/api/v1/pass/controllertask/worker', headers: { authorization: controller } });
    taskId = worker.json().id;
  }, 600_000);
  afterAll(() => t.close());

  const photoCount = async () =>
    (await t.db.query<{ n: number }>('select count(*)::int as n from bc.task_photo where task_id = $1', [taskId]))[0].n;
  const upload = (payload: Buffer | string, contentType: string, title = 'p.jpg') =>
    t.app.inject({
      method: 'POST',
      url: `/api/v1/pass/controllertask/photo?controller_task_id=${taskId}&title=${title}`,
      headers: { authorization: controller, 'content-type': contentType },
      payload,
    });
  const part = (boundary: string, file: Buffer) =>
    Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="p.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`),
      file,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);

  it('a malformed multipart body (no boundary, wrong boundary, cut short, garbage) is a 400 with a catalogue code, nothing stored', async () => {
    const before = await photoCount();
    const whole = part('b0undary', tinyJpeg());
    const cases: [string, Buffer | string, string][] = [
      ['no boundary', whole, 'multipart/form-data'],
      ['wrong boundary', whole, 'multipart/form-data; boundary=another'],
      ['truncated body', whole.subarray(0, whole.length - 40), 'multipart/form-data; boundary=b0undary'],
      ['cut inside the part headers', whole.subarray(0, 30), 'multipart/form-data; boundary=b0undary'],
      ['garbage', 'x'.repeat(200), 'multipart/form-data; boundary=b0undary'],
      ['empty', '', 'multipart/form-data; boundary=b0undary'],
    ];
    for (const [name, payload, type] of cases) {
      const response = await upload(payload, type);
      expect(response.statusCode, `${name}: ${response.body}`).toBe(400);
      const [code] = response.json().messages;
      expect(isErrorCode(code), `${name}: ${code}`).toBe(true);
    }
    expect(await photoCount()).toBe(before);
  });

  it('only real images are photos: GIF, PNG and JPEG structures are read through, polyglots and broken files are refused', async () => {
    const before = await photoCount();
    const accepted = [
      ['g.gif', tinyGif()],
      ['p.png', tinyPng()],
      ['j.jpg', tinyJpeg()],
    ] as const;
    for (const [title, file] of accepted) {
      const response = await upload(part('b', file), 'multipart/form-data; boundary=b', title);
      expect(response.statusCode, `${title}: ${response.body}`).toBe(201);
    }
    const html = Buffer.from('<html><body><script>alert(document.cookie)</script></body></html>');
    const refused: [string, Buffer][] = [
      ['GIF header then HTML', Buffer.concat([Buffer.from('GIF89a'), html])],
      ['a GIF with HTML after its trailer', Buffer.concat([tinyGif(), html])],
      ['a GIF with HTML in a comment', gifWithComment('<script>alert(1)</script>')],
      ['a PNG with HTML in a text chunk', pngWithText('<html><script>x()</script>')],
      ['a JPEG with HTML in a comment', jpegWithComment('<svg onload=alert(1)>')],
      ['a JPEG header and filler', Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(2044, 7)])],
      ['a PNG cut short', tinyPng().subarray(0, 40)],
      ['a PNG of 0 × 0', pngOfSize(0, 0)],
      ['a GIF of 70000 pixels wide', gifOfSize(65535, 65535)],
      ['a GIF without its trailer', tinyGif().subarray(0, tinyGif().length - 1)],
    ];
    for (const [name, file] of refused) {
      const response = await upload(part('b', file), 'multipart/form-data; boundary=b', 'bad.jpg');
      expect(response.statusCode, `${name}: ${response.body}`).toBe(400);
      expect(response.json().messages).toEqual(['bc_photo_not_image']);
    }
    expect(await photoCount()).toBe(before + accepted.length);
  });
});

function gifWithComment(text: string): Buffer {
  const gif = tinyGif();
  // after the header (6), screen descriptor (7) and 2-colour table (6): a comment extension
  const comment = Buffer.concat([Buffer.from([0x21, 0xfe, text.length]), Buffer.from(text), Buffer.from([0])]);
  return Buffer.concat([gif.subarray(0, 19), comment, gif.subarray(19)]);
}

function gifOfSize(width: number, height: number): Buffer {
  const gif = Buffer.from(tinyGif());
  gif.writeUInt16LE(width, 6);
  gif.writeUInt16LE(height, 8);
  return gif;
}

function pngWithText(text: string): Buffer {
  const png = tinyPng();
  // after the signature (8) and IHDR (25): a tEXt chunk, its CRC right
  return Buffer.concat([png.subarray(0, 33), pngChunk('tEXt', Buffer.from(`Comment\0${text}`, 'latin1')), png.subarray(33)]);
}

function pngOfSize(width: number, height: number): Buffer {
  const png = tinyPng();
  const ihdr = Buffer.from(png.subarray(16, 29));
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  return Buffer.concat([png.subarray(0, 8), pngChunk('IHDR', ihdr), png.subarray(33)]);
}

function jpegWithComment(text: string): Buffer {
  const jpeg = tinyJpeg();
  const length = Buffer.alloc(2);
  length.writeUInt16BE(text.length + 2, 0);
  return Buffer.concat([jpeg.subarray(0, 2), Buffer.from([0xff, 0xfe]), length, Buffer.from(text, 'latin1'), jpeg.subarray(2)]);
}

/**
 * Lone UTF-16 surrogates, in the fuzzer's way (tests/fuzz.test.ts): every write route with a JSON body gets one
 * in a string, and each refuses the request as a whole before anything is written.
 */
describe.each(ENGINES)('lone surrogates on %s', (engine) => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    // every module on, so every write route is reached (a module that is off answers 404 before any check)
    t = await startTestApp(engine, { switches: loadConfig({ DEMO_DATA: 'false', MODULES: MODULES_OFF_BY_DEFAULT.join(',') }).switches });
    admin = await t.login('admin', 'admin123');
  }, 600_000);
  afterAll(() => t.close());

  const journalRows = async () => (await t.db.query<{ n: number }>('select count(*)::int as n from app.user_action'))[0].n;

  it('every write route refuses a lone surrogate in its body (key or value) with invalid_characters, changing nothing', async () => {
    const writes = t.app.routeAccess.filter(
      (route) => ['POST', 'PUT', 'PATCH', 'DELETE'].includes(route.method) && route.url.startsWith('/api/') && !/logout/.test(route.url),
    );
    expect(writes.length).toBeGreaterThan(30);
    const before = await tableChecksums(t.db);
    const journal = await journalRows();
    const findings: string[] = [];
    // raw JSON text: the escapes arrive as lone surrogates once parsed
    const payloads = ['{"name":"a\\ud800b","config":{"type":"stops"},"row":{"stop_name":"\\udfff"}}', '{"\\udc00":1}', '["\\ud83d"]'];
    for (const route of writes) {
      for (const payload of payloads) {
        const url = route.url.replace(/:\w+/g, '1');
        const response = await t.app.inject({
          method: route.method as 'POST',
          url,
          headers: { authorization: admin, 'content-type': 'application/json' },
          payload,
        });
        const code = response.statusCode === 400 ? (response.json() as { messages: string[] }).messages[0] : undefined;
        if (code !== 'invalid_characters')
          findings.push(`${route.method} ${route.url} ${payload}: ${response.statusCode} ${response.body.slice(0, 120)}`);
      }
    }
    expect(findings).toEqual([]);
    expect(await tableChecksums(t.db)).toEqual(before);
    expect(await journalRows()).toBe(journal);
  });

  it('a journal entry whose documents hold unstorable text is still written, the text made storable', async () => {
    const [user] = await t.db.query<{ id: number }>(`select id from app.users where username = 'admin'`);
    const request = { headers: {}, user: { id: user.id }, ip: '127.0.0.1', log: t.app.log, journaled: false } as unknown as FastifyRequest;
    await t.app.journal.record(request, {
      action: 'test.surrogate',
      object: 'x\ud800',
      objectId: 1,
      before: { 'k\udc00': 'a\ud800b\u0000' },
      request: ['\ud83d'],
    });
    const [row] = await t.db.query<{ object: string; before: Record<string, string>; request: string[] }>(
      `select object, before, request from app.user_action where action = 'test.surrogate'`,
    );
    expect(row).toEqual({ object: 'x\ufffd', before: { 'k\ufffd': 'a\ufffdb\ufffd' }, request: ['\ufffd'] });
    expect(request.journaled).toBe(true);
  });

  it('a long text cut for the journal keeps its surrogate pairs whole', async () => {
    const text = `${'a'.repeat(1999)}🚌 and more`;
    expect(redact(text)).toBe(`${'a'.repeat(1999)}…`);
  });
});
