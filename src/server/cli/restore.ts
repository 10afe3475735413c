import { ConfigError, loadConfig } from '../config.ts';
import { DatabaseLockedError } from '../db/data-dir-lock.ts';
import { BackupError, describeManifest } from '../backup/archive.ts';
import { restoreArchive } from '../backup/restore.ts';
import { parseBackupArgs } from './backup-args.ts';

const USAGE = `Uso: npm run restore -- ARQUIVO.tar.gz [--force]

Restaura uma cópia de npm run backup no PostgreSQL de DATABASE_URL ou, sem ela, no banco
embutido em DATA_DIR, e os arquivos em DATA_DIR/uploads. Confere a cópia inteira (versão,
somas SHA-256, se está completa) antes de mexer em qualquer coisa. O destino precisa estar
vazio e sem servidor rodando nele.

  --force  apaga o que houver no destino (as tabelas e dados do banco e a pasta de
           arquivos) e restaura a cópia no lugar. Não há como desfazer.`;

async function main(): Promise<void> {
  const args = parseBackupArgs(USAGE, ['force']);
  if (!args) return;
  const config = loadConfig();
  const target = config.databaseUrl
    ? ({ kind: 'postgres', url: config.databaseUrl } as const)
    : ({ kind: 'pglite', dataDir: config.dataDir } as const);
  const { manifest, ms } = await restoreArchive(args.file, target, {
    filesRoot: config.uploadsDir,
    force: args.flags.has('force'),
  });
  const where = target.kind === 'postgres' ? 'no PostgreSQL de DATABASE_URL' : `no banco embutido em ${config.dataDir}`;
  console.log(
    `Cópia de ${manifest.createdAt} (Méritus ${manifest.app.version}) restaurada ${where} em ${(ms / 1000).toFixed(1).replace('.', ',')} s`,
  );
  for (const line of describeManifest(manifest)) console.log(line);
  if (manifest.files.included) console.log(`  Arquivos restaurados em ${config.uploadsDir}`);
  if (manifest.files.included && config.storage.driver === 's3') {
    console.log(
      `  Atenção: este servidor usa o bucket S3 "${config.storage.s3.bucket}"; envie a pasta acima para ele (por exemplo, com rclone copy).`,
    );
  }
}

main().catch((error: unknown) => {
  if (error instanceof DatabaseLockedError) {
    console.error(`\n${error.message}\nPare o servidor antes de restaurar.\n`);
  } else if (error instanceof BackupError || error instanceof ConfigError) {
    console.error(`\n${error.message}\n`);
  } else {
    console.error(error);
  }
  process.exit(1);
});
