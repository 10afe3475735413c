import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';
import { z } from 'zod';
import { countOf, formatSize } from '../../shared/format.ts';
import { migrationJournal, migrateTo, type Query, type SqlClient } from './sql-client.ts';
import { readTar, TAR_END, tarHeader, tarPadding, TarFormatError, writeChunk } from './tar.ts';

/**
 * A backup is one .tar.gz: `db/<table>.jsonl` per table of the public schema in foreign-key
 * order (one row_to_json line per row, read in one REPEATABLE READ READ ONLY transaction, so
 * the tables agree with each other while transfers go on), `files/<key>` per stored file,
 * and `manifest.json` last, with every entry's size and SHA-256. Rows as JSON rather than a
 * driver's types: PGlite and PostgreSQL read them back the same, so either restores the other.
 */
export const ARCHIVE_FORMAT = 1;

/** Signed-in sessions are not data to keep: a restored school signs in again. */
export const EXCLUDED_TABLES = ['sessions'];

const MANIFEST = 'manifest.json';
const FETCH_ROWS = 2000;
/** Rows inserted per statement when restoring, bounded by count and by bytes. */
const INSERT_ROWS = 1000;
const INSERT_BYTES = 1 << 20;

/** Anything the operator must know or correct; printed without a stack trace. */
export class BackupError extends Error {}

const entrySchema = z.object({ size: z.number().int().min(0), sha256: z.string().regex(/^[0-9a-f]{64}$/) });
const manifestSchema = z.object({
  format: z.number().int(),
  app: z.object({ name: z.string(), version: z.string() }),
  createdAt: z.string(),
  database: z.object({ kind: z.enum(['pglite', 'postgres']), version: z.string() }),
  migrations: z.array(z.object({ hash: z.string(), createdAt: z.number(), tag: z.string().nullable() })),
  tables: z.array(z.object({ name: z.string(), rows: z.number().int().min(0) })),
  excludedTables: z.array(z.string()),
  sequences: z.array(z.object({ name: z.string(), lastValue: z.string(), isCalled: z.boolean() })),
  files: z.object({ included: z.boolean(), count: z.number().int().min(0), bytes: z.number().int().min(0), note: z.string().optional() }),
  entries: z.record(z.string(), entrySchema),
});
export type Manifest = z.infer<typeof manifestSchema>;

/** Where stored files live: the local folder (copied into the archive) or object storage (left out, with a note why). */
export type FileSource = { kind: 'local'; root: string } | { kind: 'object-storage'; note: string };

export type BackupSummary = { manifest: Manifest; archiveBytes: number; ms: number };

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

function appVersion(): string {
  const file = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'package.json');
  return (JSON.parse(fs.readFileSync(file, 'utf8')) as { version: string }).version;
}

/** The public schema's tables, every table after the ones its foreign keys point at. */
async function tablesInForeignKeyOrder(query: Query): Promise<string[]> {
  const tables = (
    await query<{ name: string }>(
      `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') AND NOT c.relispartition ORDER BY c.relname`,
    )
  ).map((row) => row.name);
  const edges = await query<{ child: string; parent: string }>(
    `SELECT child.relname AS child, parent.relname AS parent FROM pg_constraint k
       JOIN pg_class child ON child.oid = k.conrelid JOIN pg_class parent ON parent.oid = k.confrelid
      WHERE k.contype = 'f' AND k.connamespace = 'public'::regnamespace AND k.conrelid <> k.confrelid`,
  );
  const ordered: string[] = [];
  const pending = new Set(tables);
  while (pending.size > 0) {
    const ready = [...pending].filter((table) => !edges.some((edge) => edge.child === table && pending.has(edge.parent)));
    if (ready.length === 0) throw new BackupError(`Chaves estrangeiras em ciclo entre as tabelas: ${[...pending].join(', ')}`);
    for (const table of ready) {
      ordered.push(table);
      pending.delete(table);
    }
  }
  return ordered;
}

/** A stream that hashes and counts what passes through it on its way to a file. */
function hashingFileWriter(file: string) {
  const out = fs.createWriteStream(file);
  const hash = createHash('sha256');
  let size = 0;
  return {
    async write(chunk: Buffer) {
      hash.update(chunk);
      size += chunk.length;
      await writeChunk(out, chunk);
    },
    async end(): Promise<{ size: number; sha256: string }> {
      await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())));
      return { size, sha256: hash.digest('hex') };
    },
  };
}

type Snapshot = Pick<Manifest, 'migrations' | 'tables' | 'sequences' | 'database'> & {
  staged: Map<string, { file: string; size: number; sha256: string }>;
};

/** Every table's rows, the migration journal and the sequences, as one transaction saw them. */
async function snapshotDatabase(client: SqlClient, stagingDir: string): Promise<Snapshot> {
  const journal = migrationJournal();
  return client.transaction(async (query) => {
    await query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY');
    const [{ version } = { version: '' }] = await query<{ version: string }>(`SELECT current_setting('server_version') AS version`);
    const [{ present } = { present: false }] = await query<{ present: boolean }>(
      `SELECT to_regclass('drizzle.__drizzle_migrations') IS NOT NULL AS present`,
    );
    const migrations = present
      ? (
          await query<{ hash: string; created_at: string }>(
            'SELECT hash, created_at::text AS created_at FROM drizzle.__drizzle_migrations ORDER BY created_at',
          )
        ).map((row) => ({
          hash: row.hash,
          createdAt: Number(row.created_at),
          tag: journal.find((entry) => entry.when === Number(row.created_at))?.tag ?? null,
        }))
      : [];
    const sequences: Manifest['sequences'] = [];
    const sequenceNames = await query<{ name: string }>(
      `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'public' AND c.relkind = 'S' ORDER BY 1`,
    );
    for (const { name } of sequenceNames) {
      const [row] = await query<{ last_value: string; is_called: boolean }>(
        `SELECT last_value::text AS last_value, is_called FROM public.${quote(name)}`,
      );
      sequences.push({ name, lastValue: row!.last_value, isCalled: row!.is_called });
    }
    const tables: Manifest['tables'] = [];
    const staged: Snapshot['staged'] = new Map();
    for (const name of await tablesInForeignKeyOrder(query)) {
      if (EXCLUDED_TABLES.includes(name)) continue;
      const file = path.join(stagingDir, `${tables.length}.jsonl`);
      const writer = hashingFileWriter(file);
      let rows = 0;
      await query(`DECLARE backup_rows NO SCROLL CURSOR FOR SELECT row_to_json(t)::text AS line FROM public.${quote(name)} t`);
      for (;;) {
        const batch = await query<{ line: string }>(`FETCH ${FETCH_ROWS} FROM backup_rows`);
        if (batch.length === 0) break;
        rows += batch.length;
        await writer.write(Buffer.from(batch.map((row) => `${row.line}\n`).join('')));
      }
      await query('CLOSE backup_rows');
      tables.push({ name, rows });
      staged.set(name, { file, ...(await writer.end()) });
    }
    return { migrations, tables, sequences, staged, database: { kind: client.kind, version } };
  });
}

/** Every file under `root` (relative paths with '/'), leaving out the storage's half-written '.partial' files. */
function listFiles(root: string): string[] {
  if (!fs.existsSync(root)) return [];
  return (fs.readdirSync(root, { recursive: true, withFileTypes: true }) as fs.Dirent[])
    .filter((entry) => entry.isFile() && !entry.name.endsWith('.partial'))
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'))
    .sort();
}

/**
 * Writes the archive to `file` (through `file.partial`, renamed at the end, so a failed backup
 * never leaves something that looks whole). The database first, then the files: a file
 * uploaded meanwhile may come along without its record (harmless), and one deleted meanwhile
 * (a photo replaced during the backup) is missing.
 */
export async function writeBackup(client: SqlClient, file: string, files: FileSource): Promise<BackupSummary> {
  const started = performance.now();
  const stagingDir = fs.mkdtempSync(path.join(os.tmpdir(), 'meritus-backup-'));
  const partial = `${file}.partial`;
  try {
    const snapshot = await snapshotDatabase(client, stagingDir);
    const entries: Manifest['entries'] = {};
    const gzip = zlib.createGzip();
    const out = fs.createWriteStream(partial);
    const written = new Promise<void>((resolve, reject) => {
      out.on('finish', resolve);
      out.on('error', reject);
      gzip.on('error', reject);
    });
    gzip.pipe(out);
    const add = async (name: string, data: Buffer) => {
      await writeChunk(gzip, tarHeader(name, data.length));
      await writeChunk(gzip, data);
      await writeChunk(gzip, tarPadding(data.length));
    };

    for (const table of snapshot.tables) {
      const stagedTable = snapshot.staged.get(table.name)!;
      const name = `db/${table.name}.jsonl`;
      await writeChunk(gzip, tarHeader(name, stagedTable.size));
      for await (const chunk of fs.createReadStream(stagedTable.file)) await writeChunk(gzip, chunk as Buffer);
      await writeChunk(gzip, tarPadding(stagedTable.size));
      entries[name] = { size: stagedTable.size, sha256: stagedTable.sha256 };
    }

    let fileCount = 0;
    let fileBytes = 0;
    if (files.kind === 'local') {
      for (const key of listFiles(files.root)) {
        let data: Buffer;
        try {
          data = await fs.promises.readFile(path.join(files.root, key));
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue; // deleted since the listing
          throw error;
        }
        const name = `files/${key}`;
        await add(name, data);
        entries[name] = { size: data.length, sha256: createHash('sha256').update(data).digest('hex') };
        fileCount += 1;
        fileBytes += data.length;
      }
    }

    const manifest: Manifest = {
      format: ARCHIVE_FORMAT,
      app: { name: 'meritus', version: appVersion() },
      createdAt: new Date().toISOString(),
      database: snapshot.database,
      migrations: snapshot.migrations,
      tables: snapshot.tables,
      excludedTables: EXCLUDED_TABLES,
      sequences: snapshot.sequences,
      files:
        files.kind === 'local'
          ? { included: true, count: fileCount, bytes: fileBytes }
          : { included: false, count: 0, bytes: 0, note: files.note },
      entries,
    };
    await add(MANIFEST, Buffer.from(JSON.stringify(manifest, null, 2)));
    await writeChunk(gzip, TAR_END);
    gzip.end();
    await written;
    fs.renameSync(partial, file);
    return { manifest, archiveBytes: fs.statSync(file).size, ms: performance.now() - started };
  } catch (error) {
    fs.rmSync(partial, { force: true });
    throw error;
  } finally {
    fs.rmSync(stagingDir, { recursive: true, force: true });
  }
}

/** The archive's tar entries, with the gzip and tar failures told apart as the operator needs them. */
async function* archiveEntries(file: string) {
  const shortName = path.basename(file);
  const truncated = () =>
    new BackupError(
      `A cópia ${shortName} está incompleta (o arquivo termina antes do fim): foi cortada ao ser copiada ou gravada. Nada foi alterado.`,
    );
  const gunzip = zlib.createGunzip();
  const input = fs.createReadStream(file);
  input.on('error', (error) => gunzip.destroy(error));
  input.pipe(gunzip);
  async function* chunks(): AsyncGenerator<Buffer> {
    try {
      for await (const chunk of gunzip) yield chunk as Buffer;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'Z_BUF_ERROR') throw truncated();
      if (code === 'Z_DATA_ERROR')
        throw new BackupError(
          `A cópia ${shortName} está corrompida ou não é uma cópia do Méritus (.tar.gz): ${(error as Error).message}. Nada foi alterado.`,
        );
      if (code === 'ENOENT') throw new BackupError(`Arquivo não encontrado: ${file}`);
      throw error;
    }
  }
  try {
    yield* readTar(chunks(), truncated);
  } catch (error) {
    if (error instanceof TarFormatError)
      throw new BackupError(`A cópia ${shortName} está corrompida: ${error.message}. Nada foi alterado.`);
    throw error;
  } finally {
    // Also when the reader stops early (a failed check): the file is closed at once.
    input.destroy();
    gunzip.destroy();
  }
}

function corrupted(file: string, what: string): BackupError {
  return new BackupError(`A cópia ${path.basename(file)} está corrompida: ${what}. Nada foi alterado.`);
}

/**
 * Reads the whole archive and checks it before anything is touched: the format version, that
 * every entry the manifest lists is there with its size and SHA-256 (and nothing else is),
 * the row counts, and that it is complete. Returns the manifest.
 */
export async function verifyArchive(file: string): Promise<Manifest> {
  const seen = new Map<string, { size: number; sha256: string; lines: number }>();
  let manifestText: string | undefined;
  for await (const entry of archiveEntries(file)) {
    if (manifestText !== undefined) throw corrupted(file, `há conteúdo depois do manifesto (${entry.name})`);
    const hash = createHash('sha256');
    const parts: Buffer[] = [];
    let lines = 0;
    for await (const piece of entry.body) {
      hash.update(piece);
      if (entry.name === MANIFEST) parts.push(piece);
      else if (entry.name.startsWith('db/')) for (const byte of piece) if (byte === 10) lines += 1;
    }
    if (entry.name === MANIFEST) manifestText = Buffer.concat(parts).toString('utf8');
    else seen.set(entry.name, { size: entry.size, sha256: hash.digest('hex'), lines });
  }
  if (manifestText === undefined)
    throw new BackupError(`${path.basename(file)} não tem manifesto: não é uma cópia do Méritus ou está incompleta. Nada foi alterado.`);
  let raw: unknown;
  try {
    raw = JSON.parse(manifestText);
  } catch {
    throw corrupted(file, 'o manifesto não é um JSON válido');
  }
  const format = (raw as { format?: unknown } | null)?.format;
  if (format !== ARCHIVE_FORMAT) {
    throw new BackupError(
      `Formato de cópia ${String(format)} não suportado: esta versão do Méritus lê o formato ${ARCHIVE_FORMAT}. Nada foi alterado.`,
    );
  }
  const parsed = manifestSchema.safeParse(raw);
  if (!parsed.success) throw corrupted(file, 'o manifesto está incompleto');
  const manifest = parsed.data;
  for (const [name, expected] of Object.entries(manifest.entries)) {
    const actual = seen.get(name);
    if (!actual) throw corrupted(file, `falta ${name}`);
    if (actual.size !== expected.size || actual.sha256 !== expected.sha256)
      throw corrupted(file, `o conteúdo de ${name} não confere com a soma SHA-256 do manifesto`);
  }
  const extra = [...seen.keys()].find((name) => !(name in manifest.entries));
  if (extra) throw corrupted(file, `${extra} não consta do manifesto`);
  for (const table of manifest.tables) {
    if (seen.get(`db/${table.name}.jsonl`)?.lines !== table.rows)
      throw corrupted(file, `a tabela ${table.name} não tem as ${table.rows} linhas do manifesto`);
  }
  return manifest;
}

/**
 * How many of this code's migrations the archive's database had: a restore first migrates to
 * that level, loads the rows, then runs the rest. An archive from a newer release is refused.
 */
export function archiveMigrationLevel(manifest: Manifest): number {
  const journal = migrationJournal();
  const last = manifest.migrations.at(-1);
  if (!last) return 0;
  const level = journal.findIndex((entry) => entry.when === last.createdAt) + 1;
  if (level === 0 || level !== manifest.migrations.length) {
    throw new BackupError(
      `A cópia foi feita pela versão ${manifest.app.version} do Méritus, com migrações que esta versão não conhece. ` +
        'Atualize o Méritus antes de restaurá-la. Nada foi alterado.',
    );
  }
  return level;
}

/**
 * The lines of a stream of UTF-8 bytes, each without its '\n'. A character whose bytes arrive in two pieces is
 * decoded whole (decoding each piece alone would turn the 'ó' of 'cópia' into two U+FFFD). `onPiece` sees the raw bytes.
 */
export async function* utf8Lines(pieces: AsyncIterable<Buffer>, onPiece: (piece: Buffer) => void = () => {}): AsyncGenerator<string> {
  const decoder = new StringDecoder('utf8');
  let rest = '';
  for await (const piece of pieces) {
    onPiece(piece);
    const lines = (rest + decoder.write(piece)).split('\n');
    rest = lines.pop()!;
    yield* lines;
  }
  rest += decoder.end();
  if (rest !== '') yield rest;
}

/** Loads the archive's rows into a database migrated to the archive's level, in one transaction; resets the sequences. */
async function loadRows(client: SqlClient, file: string, manifest: Manifest): Promise<void> {
  const tables = new Map(manifest.tables.map((table) => [`db/${table.name}.jsonl`, table.name]));
  await client.transaction(async (query) => {
    // Rows are loaded as archived: the tables' own triggers (the ledger's report sums, decision 011)
    // are off until the end, since the archive holds what they would derive.
    for (const table of manifest.tables) await query(`ALTER TABLE public.${quote(table.name)} DISABLE TRIGGER USER`);
    // Rows a migration wrote (a default setting, a list to start from) give way to the archive's.
    await query(`TRUNCATE ${manifest.tables.map((table) => `public.${quote(table.name)}`).join(', ')} CASCADE`);
    for await (const entry of archiveEntries(file)) {
      const table = tables.get(entry.name);
      if (!table) continue;
      const columns = (
        await query<{ name: string }>(
          `SELECT column_name AS name FROM information_schema.columns
            WHERE table_schema = 'public' AND table_name = $1 AND is_generated = 'NEVER' ORDER BY ordinal_position`,
          [table],
        )
      ).map((row) => quote(row.name));
      const insert = `INSERT INTO public.${quote(table)} (${columns.join(', ')}) OVERRIDING SYSTEM VALUE
        SELECT ${columns.join(', ')} FROM json_populate_recordset(NULL::public.${quote(table)}, $1::json)`;
      const hash = createHash('sha256');
      let batch: string[] = [];
      let batchBytes = 0;
      const flush = async () => {
        if (batch.length > 0) await query(insert, [`[${batch.join(',')}]`]);
        batch = [];
        batchBytes = 0;
      };
      for await (const line of utf8Lines(entry.body, (piece) => hash.update(piece))) {
        batch.push(line);
        batchBytes += line.length;
        if (batch.length >= INSERT_ROWS || batchBytes >= INSERT_BYTES) await flush();
      }
      await flush();
      // Checked again: the file may have changed since it was verified.
      if (hash.digest('hex') !== manifest.entries[entry.name]!.sha256) throw corrupted(file, `${entry.name} mudou durante a restauração`);
    }
    for (const table of manifest.tables) {
      const [row] = await query<{ n: number }>(`SELECT count(*)::int AS n FROM public.${quote(table.name)}`);
      if (row!.n !== table.rows) throw new BackupError(`A tabela ${table.name} ficou com ${row!.n} linhas em vez de ${table.rows}.`);
    }
    for (const sequence of manifest.sequences) {
      await query(`SELECT setval(format('public.%I', $1::text)::regclass, $2::bigint, $3)`, [
        sequence.name,
        sequence.lastValue,
        sequence.isCalled,
      ]);
    }
    for (const table of manifest.tables) await query(`ALTER TABLE public.${quote(table.name)} ENABLE TRIGGER USER`);
  });
}

/** Writes the archive's files under `root`, each through a '.partial' name and checked against its SHA-256. */
async function restoreFiles(file: string, manifest: Manifest, root: string): Promise<void> {
  for await (const entry of archiveEntries(file)) {
    if (!entry.name.startsWith('files/')) continue;
    const key = entry.name.slice('files/'.length);
    const target = path.resolve(root, key);
    if (!target.startsWith(path.resolve(root) + path.sep)) throw corrupted(file, `${entry.name} aponta para fora da pasta de arquivos`);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    const writer = hashingFileWriter(`${target}.partial`);
    for await (const piece of entry.body) await writer.write(piece);
    const { sha256 } = await writer.end();
    if (sha256 !== manifest.entries[entry.name]!.sha256) {
      fs.rmSync(`${target}.partial`, { force: true });
      throw corrupted(file, `${entry.name} mudou durante a restauração`);
    }
    fs.renameSync(`${target}.partial`, target);
  }
}

/**
 * Restores a verified archive into an empty database: the archive's migrations, its rows and
 * sequences in one transaction, then its files under `filesRoot`. The current migrations run
 * afterwards, when the server (or the restore command) opens the database as usual.
 */
export async function restoreInto(client: SqlClient, file: string, manifest: Manifest, filesRoot: string): Promise<void> {
  await migrateTo(client, archiveMigrationLevel(manifest));
  await loadRows(client, file, manifest);
  if (manifest.files.included) await restoreFiles(file, manifest, filesRoot);
}

/** What an archive holds, in pt-BR lines: rows per table, files, migrations. */
export function describeManifest(manifest: Manifest): string[] {
  const rows = manifest.tables.reduce((sum, table) => sum + table.rows, 0);
  const lines = [
    `  Banco (${manifest.database.kind === 'pglite' ? 'embutido' : 'PostgreSQL'} ${manifest.database.version}): ` +
      `${countOf(manifest.tables.length, 'tabela', 'tabelas')}, ${countOf(rows, 'linha', 'linhas')}; ` +
      `migração ${manifest.migrations.at(-1)?.tag ?? 'nenhuma'}`,
    ...manifest.tables.map((table) => `    ${table.name}: ${countOf(table.rows, 'linha', 'linhas')}`),
    `  Sessões não incluídas (${manifest.excludedTables.join(', ')}): todos entram de novo depois de restaurar.`,
  ];
  lines.push(
    manifest.files.included
      ? `  Arquivos: ${countOf(manifest.files.count, 'arquivo', 'arquivos')}, ${formatSize(manifest.files.bytes)}`
      : `  Arquivos NÃO incluídos: ${manifest.files.note ?? ''}`,
  );
  return lines;
}
