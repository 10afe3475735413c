import readline from 'node:readline';
import { Writable } from 'node:stream';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { loadConfig, ConfigError } from '../config.ts';
import { DatabaseLockedError, openDatabase, type Db } from '../db/client.ts';
import { admins } from '../db/schema.ts';
import { hashPassword } from '../modules/auth/password.ts';
import { recordAudit } from '../modules/audit/audit.service.ts';

const USAGE = `Uso: npm run admin:create -- --email EMAIL --name "NOME" --password SENHA

Sem opções (ou com só algumas), pergunta o que faltar.
Usa o PostgreSQL de DATABASE_URL ou, sem ela, o banco embutido em DATA_DIR (padrão ./data);
com o banco embutido, o servidor precisa estar parado.`;

/** Thrown for anything the operator must correct; printed without a stack trace. */
class CliError extends Error {}

const fields = {
  email: z.email({ error: 'Email inválido' }),
  name: z.string().trim().min(1, { error: 'Informe o nome' }).max(200, { error: 'Nome muito longo' }),
  password: z
    .string()
    .min(8, { error: 'A senha deve ter pelo menos 8 caracteres' })
    .max(200, { error: 'A senha deve ter no máximo 200 caracteres' }),
};
type Field = keyof typeof fields;
type NewAdmin = { email: string; name: string; password: string };

function check(field: Field, value: string): string | null {
  const result = fields[field].safeParse(field === 'email' ? value.trim() : value);
  return result.success ? null : (result.error.issues[0]?.message ?? 'Valor inválido');
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
    return { email: given.email.trim(), name: given.name.trim(), password: given.password };
  }

  const prompter = createPrompter();
  try {
    const askUntilValid = async (field: Field, question: string, hidden = false): Promise<string> => {
      for (;;) {
        const answer = await prompter.ask(question, hidden);
        const problem = check(field, answer);
        if (!problem) return field === 'password' ? answer : answer.trim();
        console.log(`  ${problem}`);
      }
    };
    console.log('Novo administrador do Méritus');
    const email = given.email?.trim() ?? (await askUntilValid('email', 'Email: '));
    const name = given.name?.trim() ?? (await askUntilValid('name', 'Nome: '));
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

/** Adds an administrator; refuses an email already used by another one (case-insensitive). */
async function createAdmin(db: Db, input: NewAdmin): Promise<{ adminId: string }> {
  const [taken] = await db
    .select({ id: admins.id })
    .from(admins)
    .where(sql`lower(${admins.email}) = ${input.email.toLowerCase()}`)
    .limit(1);
  if (taken) throw new CliError(`Já existe um administrador com o email ${input.email}.`);
  const existing = await db.select({ adminId: admins.adminId }).from(admins);
  const next = 1 + Math.max(0, ...existing.map((row) => Number(/^admin(\d+)$/.exec(row.adminId)?.[1] ?? 0)));
  const adminId = `admin${String(next).padStart(3, '0')}`;
  await db.transaction(async (tx) => {
    const [row] = await tx
      .insert(admins)
      .values({ adminId, name: input.name, email: input.email, passwordHash: await hashPassword(input.password), role: 'admin', permissions: ['all'] })
      .returning({ id: admins.id });
    await recordAudit(tx, {
      actor: { kind: 'system', label: 'npm run admin:create' },
      action: 'admin.created',
      details: { adminId, email: input.email, id: row?.id },
    });
  });
  return { adminId };
}

async function main(): Promise<void> {
  const input = await gatherInput(process.argv.slice(2));
  const config = loadConfig();
  const database = await openDatabase(config);
  try {
    const { adminId } = await createAdmin(database.db, input);
    const where = database.kind === 'postgres' ? 'no PostgreSQL de DATABASE_URL' : `no banco embutido em ${config.dataDir}`;
    console.log(`Administrador ${input.name} <${input.email}> criado (${adminId}) ${where}.`);
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
