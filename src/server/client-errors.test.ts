import net from 'node:net';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { buildTestApp, type TestApp } from './test/test-app.ts';

let t: TestApp;
let port: number;

beforeAll(async () => {
  t = await buildTestApp();
  const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = Number(new URL(address).port);
});
afterAll(async () => t?.close());

/** Sends raw bytes on a new connection and reads everything until the server closes it. */
function rawRequest(bytes: Buffer): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.end(bytes));
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}

test("requests Node's parser refuses are answered 400 in our shape and in pt-BR", async () => {
  const requests = [
    // A raw 'é' in the query (browsers percent-encode it).
    Buffer.concat([Buffer.from('GET /api/health?x='), Buffer.from([0xc3, 0xa9]), Buffer.from(' HTTP/1.1\r\nHost: x\r\n\r\n')]),
    // A control character in a header's value.
    Buffer.from('GET /api/health HTTP/1.1\r\nHost: x\r\nX-Bad: a\x01b\r\n\r\n'),
  ];
  for (const bytes of requests) {
    const answer = await rawRequest(bytes);
    const [head, body] = answer.split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(head).toContain('Content-Type: application/json; charset=utf-8');
    expect(JSON.parse(body!)).toEqual({ error: { code: 'bad_request', message: 'Dados inválidos' } });
  }
  // The server goes on answering.
  expect((await t.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
});
