import readline from 'node:readline';
import { Writable } from 'node:stream';
import { parseArgs } from 'node:util';
import { AppError } from '../app-error.ts';
import { loadConfig, ConfigError } from '../config.ts';
import { openDatabase } from '../db/client.ts';
import { DatabaseLockedError } from '../db/data-dir-lock.ts';
import { createStaffMember } from '../modules/staff/staff.service.ts';
import { createStaffInput } from '../../shared/staff.ts';
import { issueMessage } from '../../shared/validation.ts';

const USAGE = `Uso: npm run admin:create -- --email EMAIL --name "NOME" --password SENHA

Sem opções (ou com só algumas), pergunta o que faltar.
Usa o PostgreSQL de DATABASE_URL ou, sem ela, o banco embutido em DATA_DIR (padrão ./data);
com o banco embutido, o servidor precisa estar parado.`;

/** Thrown for anything the operator must correct; printed without a stack trace. */
class CliError extends Error {}

/** The settings screen's rules, so an answer refused here is refused there too. */
const fields = createStaffInput.shape;
type Field = keyof typeof fields;
type NewAdmin = { email: string; name: string; password: string };

function check(field: Field, value: string): string | null {
  const result = fields[field].safeParse(value);
  return result.success ? null : issueMessage(result.error.issues[0]!);
}

/** Reads lines from the terminal (or a pipe); the password is typed without echo on a terminal. */
function createPrompter() {
  let muted = false;
  const echo = new Writable({
    write(chunk, encoding, callback) {
      if (!muted) process.stdout.write(chunk, encoding);
      callback();
    },
  });
  const rl = readline.createInterface({ input: process.stdin, output: echo, terminal: Boolean(process.stdin.isTTY) });
  const lines = rl[Symbol.asyncIterator]();
  return {
    async ask(question: string, hidden = false): Promise<string> {
      process.stdout.write(question);
      muted = hidden;
      const next = await lines.next();
      muted = false;
      if (hidden || !process.stdin.isTTY) process.stdout.write('\n');
      if (next.done) throw new CliError('Entrada encerrada antes de todos os dados serem informados.');
      return String(next.value);
    },
    close: () => rl.close(),
  };
}

async function gatherInput(argv: string[]): Promise<NewAdmin> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      options: {
        email: { type: 'string' },
        name: { type: 'string' },
        password: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
    });
  } catch (error) {
    throw new CliError(`${(error as Error).message}\n\n${USAGE}`);
  }
  if (parsed.values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const given: Partial<NewAdmin> = { email: parsed.values.email, name: parsed.values.name, password: parsed.values.password };
  for (const field of ['email', 'name', 'password'] as const) {
    const value = given[field];
    const problem = value === undefined ? null : check(field, value);
    if (problem) throw new CliError(`--${field}: ${problem}`);
  }
  if (given.email !== undefined && given.name !== undefined && given.password !== undefined) {
    return { email: given.email, name: given.name, password: given.password };
  }

  const prompter = createPrompter();
  try {
    const askUntilValid = async (field: Field, question: string, hidden = false): Promise<string> => {
      for (;;) {
        const answer = await prompter.ask(question, hidden);
        const problem = check(field, answer);
        if (!problem) return answer;
        console.log(`  ${problem}`);
      }
    };
    console.log('Novo administrador do Méritus');
    const email = given.email ?? (await askUntilValid('email', 'Email: '));
    const name = given.name ?? (await askUntilValid('name', 'Nome: '));
    let password = given.password;
    while (password === undefined) {
      const first = await askUntilValid('password', 'Senha (mínimo 8 caracteres): ', true);
      const again = await prompter.ask('Confirme a senha: ', true);
      if (first === again) password = first;
      else console.log('  As senhas não conferem. Tente de novo.');
    }
    return { email, name, password };
  } finally {
    prompter.close();
  }
}

async function main(): Promise<void> {
  const input = await gatherInput(process.argv.slice(2));
  const config = loadConfig();
  const database = await openDatabase(config);
  try {
    const created = await createStaffMember({ db: database.db }, { role: 'system', name: 'npm run admin:create' }, input).catch(
      (error: unknown) => {
        if (!(error instanceof AppError)) throw error;
        throw new CliError(
          error.code === 'email_taken' ? `Já existe um administrador com o email ${fields.email.parse(input.email)}.` : error.message,
        );
      },
    );
    const where = database.kind === 'postgres' ? 'no PostgreSQL de DATABASE_URL' : `no banco embutido em ${config.dataDir}`;
    console.log(`Administrador ${created.name} <${created.email}> criado (${created.adminId}) ${where}.`);
  } finally {
    await database.close();
  }
}

main().catch((error: unknown) => {
  if (error instanceof DatabaseLockedError) {
    console.error(`\n${error.message}\nPare o servidor (Ctrl+C no terminal do npm start) e rode o comando de novo.\n`);
  } else if (error instanceof CliError || error instanceof ConfigError) {
    console.error(`\n${error.message}\n`);
  } else {
    console.error(error);
  }
  process.exit(1);
});
