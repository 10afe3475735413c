import fs from 'node:fs';
import path from 'node:path';
import { ConfigError, loadConfig } from '../config.ts';
import { DatabaseLockedError } from '../db/data-dir-lock.ts';
import { BackupError, describeManifest, writeBackup, type BackupSummary } from '../backup/archive.ts';
import { fileSourceOf, liveBackupSocketPath, requestLiveBackup } from '../backup/live-backup.ts';
import { connectPostgres, openPgliteFolder, type SqlClient } from '../backup/sql-client.ts';
import { formatSize } from '../../shared/format.ts';
import { parseBackupArgs } from './backup-args.ts';

const USAGE = `Uso: npm run backup -- ARQUIVO.tar.gz

Grava num só arquivo o banco inteiro (o PostgreSQL de DATABASE_URL ou, sem ela, o banco
embutido em DATA_DIR), sem as sessões, e os arquivos enviados (DATA_DIR/uploads; com
S3_BUCKET, os arquivos ficam no bucket e não entram na cópia).
Pode rodar com o servidor no ar: a cópia é uma foto consistente do banco, mesmo com
transferências acontecendo. Com o banco embutido e o servidor no ar, quem grava a cópia é o
próprio servidor (o PGlite atende um processo por vez), a pedido deste comando.`;

const embeddedLocked = (dataDir: string) =>
  `O servidor não atendeu o pedido de cópia em ${liveBackupSocketPath(dataDir)} (talvez ainda esteja iniciando, ` +
  'ou seja de uma versão anterior): tente de novo em instantes, ou pare-o, rode npm run backup e inicie-o de novo.';

/** The embedded database's backup: taken here when no server holds DATA_DIR, otherwise by the server that does. */
async function embeddedBackup(dataDir: string, file: string, write: (client: SqlClient) => Promise<BackupSummary>): Promise<BackupSummary> {
  let client: SqlClient;
  try {
    client = await openPgliteFolder(dataDir);
  } catch (error) {
    if (!(error instanceof DatabaseLockedError)) throw error;
    const summary = await requestLiveBackup(dataDir, file);
    if (!summary) throw new BackupError(`${error.message}\n${embeddedLocked(dataDir)}`);
    return summary;
  }
  try {
    return await write(client);
  } finally {
    await client.close();
  }
}

async function main(): Promise<void> {
  const args = parseBackupArgs(USAGE);
  if (!args) return;
  const { file } = args;
  if (fs.existsSync(file)) throw new BackupError(`${file} já existe: escolha outro nome (por exemplo, com a data) ou apague-o antes.`);
  const config = loadConfig();
  if (!config.databaseUrl && !fs.existsSync(path.join(config.dataDir, 'pglite'))) {
    throw new BackupError(`Não há banco embutido em ${config.dataDir}: confira DATA_DIR (ou DATABASE_URL, para PostgreSQL).`);
  }
  const files = fileSourceOf(config);
  const write = (client: SqlClient) => writeBackup(client, file, files);
  let summary: BackupSummary;
  if (config.databaseUrl) {
    const client = await connectPostgres(config.databaseUrl);
    try {
      summary = await write(client);
    } finally {
      await client.close();
    }
  } else {
    summary = await embeddedBackup(config.dataDir, file, write);
  }
  const { manifest, archiveBytes, ms } = summary;
  console.log(`Cópia gravada em ${file} (${formatSize(archiveBytes)}, ${(ms / 1000).toFixed(1).replace('.', ',')} s)`);
  for (const line of describeManifest(manifest)) console.log(line);
}

main().catch((error: unknown) => {
  if (error instanceof BackupError || error instanceof ConfigError) {
    console.error(`\n${error.message}\n`);
  } else {
    console.error(error);
  }
  process.exit(1);
});
