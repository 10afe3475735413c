import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { simpleParser, type ParsedMail } from 'mailparser';

/** A message as the test SMTP server received it, parsed (mailparser): its parts and headers. */
export type ReceivedMail = ParsedMail & { envelopeTo: string[] };

export type TestSmtpServer = {
  /** The SMTP_URL of this server. */
  url: string;
  /** Every message accepted so far, in order. */
  received: ReceivedMail[];
  /** While true, every message is refused with a temporary failure (451), as a server in trouble answers. */
  refusing: boolean;
  /** How many messages were refused. */
  refused: number;
  close(): Promise<void>;
};

/** A real SMTP server on a free port of this machine (the smtp-server package), without TLS or sign-in. */
export async function startTestSmtpServer(): Promise<TestSmtpServer> {
  const state = { received: [] as ReceivedMail[], refusing: false, refused: 0 };
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onMailFrom(_address, _session, callback) {
      if (!state.refusing) return callback();
      state.refused += 1;
      callback(Object.assign(new Error('Serviço indisponível, tente mais tarde'), { responseCode: 451 }));
    },
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((mail) => {
          state.received.push(Object.assign(mail, { envelopeTo: session.envelope.rcptTo.map((rcpt) => rcpt.address) }));
          callback();
        })
        .catch((error: Error) => callback(error));
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return Object.assign(state, {
    url: `smtp://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }) as TestSmtpServer;
}
