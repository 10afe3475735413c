/**
 * node --import tsx bench/admin-students.ts — the student screens with 2,000 students.
 *
 * On an in-memory PGlite and on a fresh PostgreSQL 15: imports a 2,000-row CSV through the
 * API (one request, one transaction, 2,000 generated passwords hashed with argon2id), then
 * times and weighs what the screens read as they open and as a person searches (the staff's
 * student list, a student's transfer recipients: a page of the server's search each), and the
 * CSV export.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { startPostgres } from '../src/server/test/postgres-server.ts';
import { openPglite, openPostgres, type Database } from '../src/server/db/client.ts';
import { admins } from '../src/server/db/schema.ts';
import { hashPassword } from '../src/server/modules/auth/password.ts';
import { buildApp } from '../src/server/app.ts';
import { loadConfig } from '../src/server/config.ts';
import { GRADES } from '../src/shared/constants.ts';

const STUDENTS = 2000;
const FIRST = ['Ana', 'João', 'Lívia', 'Ícaro', 'Beatriz', 'Otávio', 'Júlia', 'Caio', 'Iara', 'Heitor'];
const LAST = ['Araújo', 'Conceição', 'Souza', 'Gonçalves', 'Lima', 'Brandão', 'Ferreira', 'Dias'];

function csv(): Buffer {
  const lines = ['Matrícula;Nome;Email;Série;Data de nascimento'];
  for (let i = 0; i < STUDENTS; i++) {
    const name = `${FIRST[i % FIRST.length]} ${LAST[(i * 7) % LAST.length]} ${LAST[(i * 3) % LAST.length]}`;
    const grade = GRADES[i % GRADES.length]!.replace(/º EM - Turma /, '');
    lines.push(`${5100000 + i};${name};aluno${i}@escola.test;${grade};${String((i % 28) + 1).padStart(2, '0')}/0${(i % 9) + 1}/2009`);
  }
  return Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(lines.join('\r\n'), 'utf8')]);
}

function multipart(bytes: Buffer) {
  const boundary = `----bench${randomUUID()}`;
  return {
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    payload: Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="alunos.csv"\r\nContent-Type: text/csv\r\n\r\n`),
      bytes,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]),
  };
}

async function median(runs: number, run: () => Promise<unknown> | unknown): Promise<number> {
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await run();
    samples.push(performance.now() - t0);
  }
  samples.sort((a, b) => a - b);
  return samples[Math.floor(runs / 2)]!;
}

async function bench(label: string, database: Database): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'meritus-bench-'));
  const config = {
    ...loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATA_DIR: dataDir, DEMO: 'off', API_RATE_LIMIT: '0' }),
    webDist: undefined,
  };
  const app = await buildApp(config, database);
  try {
    await database.db.insert(admins).values({
      adminId: 'bench',
      name: 'Bench',
      email: 'bench@escola.test',
      passwordHash: await hashPassword('bench-pass'),
    });
    const login = await app.inject({
      method: 'POST',
      url: '/api/auth/admin/login',
      payload: { email: 'bench@escola.test', password: 'bench-pass' },
    });
    const cookie = String(login.headers['set-cookie']).split(';')[0]!;
    const body = multipart(csv());

    let t0 = performance.now();
    const preview = await app.inject({
      method: 'POST',
      url: '/api/admin/students/import/preview',
      headers: { cookie, ...body.headers },
      payload: body.payload,
    });
    const previewMs = performance.now() - t0;
    t0 = performance.now();
    const imported = await app.inject({
      method: 'POST',
      url: '/api/admin/students/import',
      headers: { cookie, ...body.headers },
      payload: body.payload,
    });
    const importMs = performance.now() - t0;
    if (imported.statusCode !== 201) throw new Error(imported.body);

    const student = (JSON.parse(imported.body) as { credentials: { studentId: string; password: string }[] }).credentials[0]!;
    const studentLogin = await app.inject({ method: 'POST', url: '/api/auth/student/login', payload: student });
    const studentCookie = String(studentLogin.headers['set-cookie']).split(';')[0]!;

    /** Median time, answer size and students in the answer (a page's items, or a whole list). */
    const read = async (url: string, as: string) => {
      let bytes = 0;
      let rows = 0;
      const ms = await median(15, async () => {
        const response = await app.inject({ method: 'GET', url, headers: { cookie: as } });
        if (response.statusCode !== 200) throw new Error(`${url}: ${response.statusCode} ${response.body}`);
        bytes = response.rawPayload.length;
        const answer = response.json() as unknown[] | { items: unknown[] };
        rows = Array.isArray(answer) ? answer.length : answer.items.length;
      });
      return `median ${ms.toFixed(1).padStart(6)} ms · ${(bytes / 1024).toFixed(1).padStart(6)} KB · ${String(rows).padStart(4)} students`;
    };
    const reads: [string, string, string][] = [
      ['Gerenciar Alunos, opening', '/api/admin/students?page=1&size=50', cookie],
      ['Gerenciar Alunos, "joao conceicao"', '/api/admin/students?q=joao%20conceicao&page=1&size=50', cookie],
      ['Gerenciar Alunos, one letter "a"', '/api/admin/students?q=a&page=1&size=50', cookie],
      ['Gerenciar Alunos, turma 2º EM - Turma C', `/api/admin/students?turma=${encodeURIComponent('2º EM - Turma C')}&size=50`, cookie],
      ['Transferir, opening', '/api/students/directory?page=1&size=50', studentCookie],
      ['Transferir, "conceicao"', '/api/students/directory?q=conceicao&page=1&size=50', studentCookie],
    ];
    const lines: string[] = [];
    for (const [what, url, as] of reads) lines.push(`  ${what.padEnd(42)} ${await read(url, as)}`);
    const exportMs = await median(5, () => app.inject({ method: 'GET', url: '/api/admin/students/export.csv', headers: { cookie } }));

    console.log(`${label}:`);
    console.log(`  import preview of ${STUDENTS} rows          ${previewMs.toFixed(0)} ms (${JSON.parse(preview.body).validCount} valid)`);
    console.log(`  import (one transaction, ${STUDENTS} argon2id) ${(importMs / 1000).toFixed(1)} s`);
    for (const line of lines) console.log(line);
    console.log(`  GET /api/admin/students/export.csv        median ${exportMs.toFixed(0)} ms`);
  } finally {
    await app.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

const pglite = await openPglite(undefined);
try {
  await bench('PGlite (in memory)', pglite);
} finally {
  await pglite.close();
}

const pg = await startPostgres({ durable: true });
const postgres = await openPostgres(pg.url, { max: 4 });
try {
  await bench('PostgreSQL 15', postgres);
} finally {
  await postgres.close();
  await pg.stop();
}
