import { eq, and, isNull, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { addStudents, buildTestApp, cookieFrom, type TestApp } from '../../test/test-app.ts';
import { startTestSmtpServer, type TestSmtpServer } from '../../test/smtp-server.ts';
import { auditLog, mailOutbox } from '../../db/schema.ts';
import { DEFAULT_RULES } from '../../../shared/settings.ts';
import { OUTBOX_FIRST_BACKOFF_MS } from './outbox.service.ts';

/**
 * Email (decision 038) against a real SMTP server (smtp-server), on both databases: the outbox under a server that
 * refuses and then accepts, the weekly summary as it arrives (HTML and text parts), the signed one-click opt-out, the
 * letter by email, and a server without SMTP, which queues nothing and says so.
 */

let smtp: TestSmtpServer;
let t: TestApp;
let serial = 0;
const PUBLIC_URL = 'http://meritus.escola.test';
const DAY_MS = 86_400_000;

beforeAll(async () => {
  smtp = await startTestSmtpServer();
  t = await buildTestApp({ env: { SMTP_URL: smtp.url, SMTP_FROM: 'Escola Teste <nao-responda@escola.test>', PUBLIC_URL } });
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

async function newStudent() {
  serial += 1;
  const [student] = await addStudents(t.db, [{ studentId: `66${String(serial).padStart(5, '0')}`, name: `Aluna Correio ${serial}` }]);
  return student!;
}

/** A guardian of `student`, signed up with a code the coordination made. */
async function newGuardian(studentUuid: string) {
  serial += 1;
  const code = (await t.request('POST', `/admin/students/${studentUuid}/guardian-codes`)).json<{ code: string }>().code;
  const email = `familia.correio.${serial}@exemplo.test`;
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/auth/guardian/signup',
    payload: { code, email, name: `Responsável Correio ${serial}`, password: 'senha-da-familia-1' },
    remoteAddress: `10.9.0.${(serial % 250) + 1}`,
  });
  expect(response.statusCode, response.body).toBe(201);
  return { email, cookie: cookieFrom(response), id: response.json<{ guardian: { id: string } }>().guardian.id };
}

function emailLetter(studentUuid: string, email: string) {
  return t.request('POST', `/admin/students/${studentUuid}/guardian-letter-email`, { payload: { email } });
}

const to = (address: string) => smtp.received.filter((mail) => mail.envelopeTo.includes(address));

/**
 * The messages an address received once the outbox sent them (`count` of them). A send refused for a moment (a loaded
 * machine) waits its backoff, as in production: the outbox runs past it until they arrive; if they never do, the
 * failure shows what the outbox holds for the address.
 */
async function mailsTo(address: string, count: number) {
  await vi.waitFor(
    async () => {
      await t.app.sendOutbox(new Date(Date.now() + OUTBOX_FIRST_BACKOFF_MS));
      const held = await t.db
        .select({ sentAt: mailOutbox.sentAt, attempts: mailOutbox.attempts, lastError: mailOutbox.lastError })
        .from(mailOutbox)
        .where(eq(mailOutbox.toAddress, address));
      expect(to(address), JSON.stringify(held)).toHaveLength(count);
    },
    { timeout: 10_000, interval: 200 },
  );
  return to(address);
}

const onlyMailTo = async (address: string) => (await mailsTo(address, 1))[0]!;

describe('the outbox', () => {
  test('a refusing server loses nothing; once it accepts, each message arrives once, and never again', async () => {
    const student = await newStudent();
    const addresses = [1, 2, 3].map((n) => `fila.${serial}.${n}@exemplo.test`);
    for (const address of addresses) expect((await emailLetter(student.id, address)).statusCode).toBe(201);
    smtp.refusing = true;
    const refusedBefore = smtp.refused;
    const now = new Date();
    const first = await t.app.sendOutbox(now);
    expect(first.sent).toBe(0);
    expect(smtp.refused - refusedBefore).toBeGreaterThanOrEqual(3);
    const pending = await t.db.select().from(mailOutbox).where(eq(mailOutbox.studentUuid, student.id));
    expect(pending).toHaveLength(3);
    for (const row of pending) {
      expect(row.sentAt).toBeNull();
      expect(row.attempts).toBe(1);
      expect(row.lastError).toContain('451');
      expect(row.nextAttemptAt.getTime()).toBe(now.getTime() + OUTBOX_FIRST_BACKOFF_MS);
    }
    // Still within the backoff: not tried again.
    const early = smtp.refused;
    await t.app.sendOutbox(new Date(now.getTime() + OUTBOX_FIRST_BACKOFF_MS / 2));
    expect(smtp.refused).toBe(early);
    // Refused a second time: the wait doubles.
    const second = new Date(now.getTime() + OUTBOX_FIRST_BACKOFF_MS);
    await t.app.sendOutbox(second);
    const [again] = await t.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, addresses[0]!));
    expect(again!.attempts).toBe(2);
    expect(again!.nextAttemptAt.getTime()).toBe(second.getTime() + 2 * OUTBOX_FIRST_BACKOFF_MS);

    smtp.refusing = false;
    const later = new Date(second.getTime() + 2 * OUTBOX_FIRST_BACKOFF_MS);
    // Two runs at once (two instances): each message is claimed by one of them.
    const runs = await Promise.all([t.app.sendOutbox(later), t.app.sendOutbox(later)]);
    expect(runs.reduce((sum, run) => sum + run.sent, 0)).toBeGreaterThanOrEqual(3);
    for (const address of addresses) expect(to(address)).toHaveLength(1);
    const sent = await t.db.select().from(mailOutbox).where(eq(mailOutbox.studentUuid, student.id));
    for (const row of sent) {
      expect(row.sentAt).not.toBeNull();
      // The body (the code) is not kept once sent.
      expect(row.textBody).toBe('');
      expect(row.htmlBody).toBe('');
    }
    await t.app.sendOutbox(new Date(later.getTime() + 30 * DAY_MS));
    for (const address of addresses) expect(to(address)).toHaveLength(1);
  });

  test('a message queued within the millisecond of the run is due (the database keeps microseconds)', async () => {
    const student = await newStudent();
    const address = `mesmo.milissegundo.${serial}@exemplo.test`;
    expect((await emailLetter(student.id, address)).statusCode).toBe(201);
    const run = new Date();
    await t.db
      .update(mailOutbox)
      .set({ nextAttemptAt: sql`${run.toISOString()}::timestamptz + interval '999 microseconds'` })
      .where(eq(mailOutbox.toAddress, address));
    await t.app.sendOutbox(run);
    expect(to(address)).toHaveLength(1);
  });
});

describe('the letter by email', () => {
  test('queues the letter with a new code in one transaction, audited without the code; the code signs a guardian up', async () => {
    const student = await newStudent();
    const address = `carta.${serial}@exemplo.test`;
    const response = await emailLetter(student.id, ` ${address.toUpperCase()} `);
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json().message).toContain(address);
    await t.app.sendOutbox();
    const [mail] = to(address);
    expect(mail!.subject).toBe(`Carta para responsáveis de ${student.name}`);
    const code = /([0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4})/.exec(mail!.text ?? '')?.[1];
    expect(code).toBeDefined();
    expect(mail!.html).toContain(code);
    expect(mail!.text).toContain(`${PUBLIC_URL}/responsaveis`);
    // The printed letter's QR code is not in the email.
    expect(mail!.text).not.toContain('QR code');
    const audit = await t.lastAudit('guardian.letter_email');
    expect(audit!.details).toMatchObject({ studentUuid: student.id, email: address });
    expect(JSON.stringify(audit)).not.toContain(code!);
    const signup = await t.app.inject({
      method: 'POST',
      url: '/api/auth/guardian/signup',
      payload: { code, email: `nova.${serial}@exemplo.test`, name: 'Mãe da Carta', password: 'senha-da-familia-1' },
      remoteAddress: '10.9.1.1',
    });
    expect(signup.statusCode, signup.body).toBe(201);
  });

  test('a bad address or a student not found changes nothing', async () => {
    const student = await newStudent();
    const bad = await emailLetter(student.id, 'não-é-email');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.code).toBe('invalid_email');
    const missing = await emailLetter('00000000-0000-4000-8000-000000000000', 'alguem@exemplo.test');
    expect(missing.statusCode).toBe(404);
    expect(await t.db.select().from(mailOutbox).where(eq(mailOutbox.studentUuid, student.id))).toHaveLength(0);
  });
});

describe('the weekly summary', () => {
  test('arrives once per guardian, child and week, with HTML and text parts and the week figures', async () => {
    const student = await newStudent();
    const guardian = await newGuardian(student.id);
    await t.award(student.id, 40, { description: 'Ajudou na feira de ciências' });
    await t.award(student.id, 3, { currency: 'estelecas', description: 'Leitura do mês' });
    const penalty = await t.request('POST', `/admin/students/${student.id}/meritus`, {
      payload: { type: 'penalty', amount: 5, description: 'Atraso na entrega' },
    });
    expect(penalty.statusCode, penalty.body).toBe(201);
    // An award the coordination took back was a mistake: the family does not read it as earned.
    const mistaken = await t.award(student.id, 25, { description: 'Lançado no aluno errado' });
    const reversal = await t.request('POST', `/admin/operations/${mistaken.entry.id}/reversal`, { payload: { reason: 'Aluno errado' } });
    expect(reversal.statusCode, reversal.body).toBe(201);
    const nextWeek = new Date(Date.now() + 7 * DAY_MS);
    expect(await t.app.queueWeeklySummaries(nextWeek)).toBeGreaterThanOrEqual(1);
    // The job runs every hour: again, nothing new.
    await t.app.queueWeeklySummaries(nextWeek);
    await t.app.sendOutbox();
    await t.app.queueWeeklySummaries(new Date(nextWeek.getTime() + 3_600_000));
    const mail = await onlyMailTo(guardian.email);
    expect(mail!.subject).toBe(`Resumo da semana de ${student.name}`);
    expect(mail!.from?.text).toContain('nao-responda@escola.test');
    for (const part of [mail!.text!, mail!.html as string]) {
      expect(part).toContain('Ajudou na feira de ciências');
      expect(part).toContain('+40 M$');
      expect(part).toContain('Leitura do mês');
      expect(part).toContain('+3 Estelecas');
      expect(part).toContain('Atraso na entrega');
      expect(part).toContain('Posição no ranking');
      expect(part).toContain('35 M$');
      expect(part).not.toContain('Lançado no aluno errado');
      expect(part).not.toContain('+25 M$');
    }
    expect(mail!.html).toMatch(/^<!doctype html>/);
    expect(mail!.html).toContain(`href="${PUBLIC_URL}/familia"`);
  });

  test('leaves out penalties and the ranking when the school does not show them to families', async () => {
    const student = await newStudent();
    const guardian = await newGuardian(student.id);
    await t.award(student.id, 10, { description: 'Participação' });
    const penalty = await t.request('POST', `/admin/students/${student.id}/meritus`, {
      payload: { type: 'penalty', amount: 2, description: 'Conversa na aula' },
    });
    expect(penalty.statusCode).toBe(201);
    await t.request('PUT', '/admin/settings/rules', {
      payload: { ...DEFAULT_RULES, familiesSeePenalties: false, familiesSeeRanking: false },
    });
    try {
      await t.app.queueWeeklySummaries(new Date(Date.now() + 7 * DAY_MS));
      await t.app.sendOutbox();
    } finally {
      await t.request('PUT', '/admin/settings/rules', { payload: DEFAULT_RULES });
    }
    const mail = await onlyMailTo(guardian.email);
    for (const part of [mail!.text!, mail!.html as string]) {
      expect(part).toContain('Participação');
      expect(part).not.toContain('Conversa na aula');
      expect(part).not.toContain('Perdeu na semana');
      expect(part).not.toContain('Posição no ranking');
    }
  });

  test('one click on the signed link turns it off; a tampered link is refused; the family area turns it on again', async () => {
    const student = await newStudent();
    const guardian = await newGuardian(student.id);
    const other = await newGuardian((await newStudent()).id);
    const week = new Date(Date.now() + 7 * DAY_MS);
    await t.app.queueWeeklySummaries(week);
    const mail = await onlyMailTo(guardian.email);
    const link = new URL(/(http:\/\/\S+\/emails\/resumo-semanal\S+)/.exec(mail!.text!)![1]!);
    expect(mail!.html).toContain(link.toString().replaceAll('&', '&#38;'));
    const guardianId = link.searchParams.get('responsavel')!;
    const signature = link.searchParams.get('assinatura')!;
    expect(guardianId).toBe(guardian.id);
    const unsubscribe = (payload: object) => t.app.inject({ method: 'POST', url: '/api/mail/unsubscribe', payload });

    const tampered = [
      { guardian: guardianId, signature: `${signature.slice(0, -1)}${signature.endsWith('A') ? 'B' : 'A'}` },
      { guardian: other.id, signature },
      { guardian: guardianId, signature: '' },
    ];
    for (const payload of tampered) {
      const refused = await unsubscribe(payload);
      expect(refused.statusCode, JSON.stringify(payload)).toBe(400);
      expect(refused.json().error.code).toBe('mail_link_invalid');
    }
    const preferences = () => t.app.inject({ url: '/api/family/mail', headers: { cookie: guardian.cookie } });
    expect((await preferences()).json()).toEqual({ enabled: true, weeklySummary: true });

    const done = await unsubscribe({ guardian: guardianId, signature });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json().message).toBe('Pronto: você não vai mais receber o resumo semanal por email.');
    expect((await unsubscribe({ guardian: guardianId, signature })).statusCode).toBe(200);
    expect((await preferences()).json()).toEqual({ enabled: true, weeklySummary: false });
    const [audit] = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'mail.weekly_summary'), eq(auditLog.actorId, guardian.id)));
    expect(audit!.details).toMatchObject({ on: false, by: 'email_link' });

    const following = new Date(week.getTime() + 7 * DAY_MS);
    await t.app.queueWeeklySummaries(following);
    await mailsTo(other.email, 2);
    expect(to(guardian.email)).toHaveLength(1);
    expect(to(other.email)).toHaveLength(2);

    const on = await t.app.inject({
      method: 'PUT',
      url: '/api/family/mail',
      headers: { cookie: guardian.cookie },
      payload: { weeklySummary: true },
    });
    expect(on.json()).toEqual({ enabled: true, weeklySummary: true });
    await t.app.queueWeeklySummaries(new Date(following.getTime() + 7 * DAY_MS));
    await mailsTo(guardian.email, 2);
    expect(to(guardian.email)).toHaveLength(2);
  });

  test("a mail reader's own unsubscribe button turns it off in one click (RFC 8058); opened in a browser, it leads to the page", async () => {
    const guardian = await newGuardian((await newStudent()).id);
    await t.app.queueWeeklySummaries(new Date(Date.now() + 7 * DAY_MS));
    const mail = await onlyMailTo(guardian.email);
    const header = (key: string) => mail.headerLines.find((line) => line.key === key)?.line.replace(/\r?\n\s+/g, '');
    expect(header('list-unsubscribe-post')).toBe('List-Unsubscribe-Post: List-Unsubscribe=One-Click');
    const oneClick = new URL(/<(http:\/\/[^>]+)>/.exec(header('list-unsubscribe') ?? '')![1]!);
    expect(oneClick.origin).toBe(PUBLIC_URL);
    expect(oneClick.pathname).toBe('/api/mail/unsubscribe/one-click');
    expect(oneClick.searchParams.get('responsavel')).toBe(guardian.id);
    const url = `${oneClick.pathname}${oneClick.search}`;
    const form = { 'content-type': 'application/x-www-form-urlencoded' };

    const opened = await t.app.inject({ url });
    expect(opened.statusCode).toBe(303);
    expect(opened.headers.location).toBe(`/emails/resumo-semanal${oneClick.search}`);

    const signature = oneClick.searchParams.get('assinatura')!;
    const forged = new URL(oneClick);
    forged.searchParams.set('assinatura', `${signature.slice(0, -1)}${signature.endsWith('A') ? 'B' : 'A'}`);
    const refusals = [
      { url: `${forged.pathname}${forged.search}`, payload: 'List-Unsubscribe=One-Click' },
      { url: oneClick.pathname, payload: 'List-Unsubscribe=One-Click' },
    ];
    for (const refusal of refusals) {
      const refused = await t.app.inject({ method: 'POST', headers: form, ...refusal });
      expect(refused.statusCode, refused.body).toBe(400);
      expect(refused.json().error.code).toBe('mail_link_invalid');
    }
    const preferences = () => t.app.inject({ url: '/api/family/mail', headers: { cookie: guardian.cookie } });
    expect((await preferences()).json()).toEqual({ enabled: true, weeklySummary: true });

    // Some readers post from the page the message is read in: another site, which the signature, not the origin, admits.
    const reader = { ...form, origin: 'https://webmail.exemplo.test', 'sec-fetch-site': 'cross-site' };
    const done = await t.app.inject({ method: 'POST', url, headers: reader, payload: 'List-Unsubscribe=One-Click' });
    expect(done.statusCode, done.body).toBe(200);
    expect((await preferences()).json()).toEqual({ enabled: true, weeklySummary: false });
    expect(await t.lastAudit('mail.weekly_summary')).toMatchObject({ actorId: guardian.id, details: { on: false, by: 'mail_reader' } });
    // The other encoding RFC 8058 allows: again, still off.
    const multipart = await t.app.inject({
      method: 'POST',
      url,
      headers: { 'content-type': 'multipart/form-data; boundary=fronteira' },
      payload: '--fronteira\r\nContent-Disposition: form-data; name="List-Unsubscribe"\r\n\r\nOne-Click\r\n--fronteira--\r\n',
    });
    expect(multipart.statusCode, multipart.body).toBe(200);
    expect((await preferences()).json()).toEqual({ enabled: true, weeklySummary: false });
    // Only this address: the page's own opt-out, from another site, is refused as any other write.
    const fromElsewhere = await t.app.inject({
      method: 'POST',
      url: '/api/mail/unsubscribe',
      headers: { origin: 'https://webmail.exemplo.test' },
      payload: { guardian: guardian.id, signature: oneClick.searchParams.get('assinatura')! },
    });
    expect(fromElsewhere.statusCode).toBe(403);
    expect(fromElsewhere.json().error.code).toBe('csrf');
    // And only this address takes a form: elsewhere the API still refuses what a foreign page's form could send.
    const formElsewhere = await t.app.inject({
      method: 'POST',
      url: '/api/auth/guardian/login',
      headers: form,
      payload: 'email=a%40b.c&password=x',
    });
    expect(formElsewhere.statusCode).toBe(415);
  });

  test('an erased child takes their waiting messages along', async () => {
    const student = await newStudent();
    await newGuardian(student.id);
    await t.app.queueWeeklySummaries(new Date(Date.now() + 7 * DAY_MS));
    expect(
      await t.db
        .select()
        .from(mailOutbox)
        .where(and(eq(mailOutbox.studentUuid, student.id), isNull(mailOutbox.sentAt))),
    ).toHaveLength(1);
    const erased = await t.request('POST', `/admin/students/${student.id}/erase`, {
      payload: { confirm: student.name, reason: 'Pedido da família' },
    });
    expect(erased.statusCode, erased.body).toBe(200);
    expect(await t.db.select().from(mailOutbox).where(eq(mailOutbox.studentUuid, student.id))).toHaveLength(0);
  });
});

describe('without SMTP', () => {
  let off: TestApp;
  beforeAll(async () => {
    off = await buildTestApp();
  });
  afterAll(async () => off.close());

  test('the screens are told email is off, and nothing is queued', async () => {
    expect((await off.request('GET', '/admin/mail')).json()).toEqual({ enabled: false });
    const [student] = off.students;
    const refused = await off.request('POST', `/admin/students/${student!.id}/guardian-letter-email`, {
      payload: { email: 'alguem@exemplo.test' },
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toMatchObject({ code: 'mail_disabled', message: 'O envio de e-mails não está configurado nesta escola.' });
    const code = (await off.request('POST', `/admin/students/${student!.id}/guardian-codes`)).json<{ code: string }>().code;
    const signup = await off.app.inject({
      method: 'POST',
      url: '/api/auth/guardian/signup',
      payload: { code, email: 'sem.email@exemplo.test', name: 'Pai Sem Email', password: 'senha-da-familia-1' },
    });
    const cookie = cookieFrom(signup);
    expect((await off.app.inject({ url: '/api/family/mail', headers: { cookie } })).json()).toEqual({
      enabled: false,
      weeklySummary: true,
    });
    const toggle = await off.app.inject({ method: 'PUT', url: '/api/family/mail', headers: { cookie }, payload: { weeklySummary: false } });
    expect(toggle.statusCode).toBe(409);
    expect(await off.app.queueWeeklySummaries(new Date(Date.now() + 7 * DAY_MS))).toBe(0);
    expect(await off.app.sendOutbox()).toEqual({ sent: 0, failed: 0 });
    expect(await off.db.select().from(mailOutbox)).toHaveLength(0);
  });

  test('with the mail on, the coordination is told so', async () => {
    expect((await t.request('GET', '/admin/mail')).json()).toEqual({ enabled: true });
  });
});
