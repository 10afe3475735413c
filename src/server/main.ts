import { loadConfig, ConfigError } from './config.ts';
import { openDatabase } from './db/client.ts';
import { DatabaseLockedError } from './db/data-dir-lock.ts';
import { ensureInitialData } from './seed/seed.ts';
import { buildApp } from './app.ts';
import { startMaintenance } from './maintenance.ts';
import { fileSourceOf, serveLiveBackups } from './backup/live-backup.ts';
import { sqlClientOf } from './backup/sql-client.ts';
import { startStoredMetadataJob } from './modules/archive/stored-metadata-job.ts';
import { archiveStagingDir } from './modules/archive/archive-files.ts';
import { startStagingSweep } from './modules/archive/staging-sweep.ts';
import { startGoalDeadlines } from './modules/store/goal-deadline-job.ts';
import { startRetentionSweep } from './modules/lgpd/retention-job.ts';
import { startMailJobs } from './modules/mail/mail-jobs.ts';
import { createFileStorage } from './storage/storage.ts';

async function main(): Promise<void> {
  const config = loadConfig();
  const database = await openDatabase(config);
  let closing = false;
  try {
    const seeded = await database.exclusive(() => ensureInitialData(database.db, config));
    const storage = createFileStorage(config);
    const app = await buildApp(config, database, { storage });
    const stopMaintenance = startMaintenance(database, app.log);
    // Turma goals whose deadline passed (while the server was down, too) give their contributions back.
    const stopGoalDeadlines = startGoalDeadlines(() => app.expireStoreGoals(), app.log);
    // The school's retention of inactive students (decision 030): once a day, when it has one.
    const stopRetentionSweep = startRetentionSweep(() => app.sweepRetention(), app.log);
    // Email (decision 038): the weekly summaries queued on Mondays, the outbox sent every OUTBOX_CHECK_MS.
    const stopMailJobs = config.smtp
      ? startMailJobs({ sendOutbox: () => app.sendOutbox(), queueWeeklySummaries: () => app.queueWeeklySummaries() }, app.log)
      : () => {};
    // Files of uploads a crash cut short; the embedded database's lock makes the data folder this process's alone.
    const stopStagingSweep = await startStagingSweep(
      {
        staging: archiveStagingDir(config.dataDir),
        uploads: storage.driver === 'local' ? config.uploadsDir : null,
        folderIsOurs: database.kind === 'pglite',
      },
      app.log,
    );
    let stopLiveBackups = async () => {};
    let stopMetadataJob = async () => {};
    /**
     * Stops taking connections, lets the requests in flight finish (transfers included),
     * ends the event streams with a reconnect hint, then closes the database. Past
     * SHUTDOWN_TIMEOUT_MS it exits anyway: a transfer is one transaction, so one cut short
     * never happened, and its retry with the same Idempotency-Key performs it once.
     */
    const shutdown = async (signal: string) => {
      if (closing) return;
      closing = true;
      app.log.info({ signal, timeoutMs: config.shutdownTimeoutMs }, 'encerrando: terminando as requisições em andamento');
      const deadline = setTimeout(() => {
        app.log.error({ timeoutMs: config.shutdownTimeoutMs }, 'requisições ainda em andamento no fim do prazo: saindo mesmo assim');
        process.exit(1);
      }, config.shutdownTimeoutMs);
      deadline.unref();
      stopMaintenance();
      stopGoalDeadlines();
      stopRetentionSweep();
      stopMailJobs();
      stopStagingSweep();
      // A kept-alive connection closes once its answer is sent, not after Node's keep-alive timeout (5 s) that server.close() waits for.
      app.server.keepAliveTimeout = 1;
      try {
        await app.close();
        await stopLiveBackups();
        await stopMetadataJob();
        await database.close();
      } catch (error) {
        app.log.error({ err: error }, 'falha ao encerrar');
        process.exit(1);
      }
      process.exit(0);
    };
    process.on('SIGINT', () => void shutdown('SIGINT'));
    process.on('SIGTERM', () => void shutdown('SIGTERM'));
    await app.listen({ port: config.port, host: config.host });
    // Only this process can read an embedded database: `npm run backup` asks it for the copy.
    if (database.kind === 'pglite')
      stopLiveBackups = await serveLiveBackups(config.dataDir, await sqlClientOf(database), fileSourceOf(config), app.log);
    // Once per database: originals stored before their metadata was removed on upload lose it now.
    stopMetadataJob = startStoredMetadataJob(database, { storage, tmpDir: archiveStagingDir(config.dataDir) }, app.log);
    app.log.info(
      { database: database.kind, demo: config.demo, seeded },
      `Méritus em http://${config.host === '0.0.0.0' ? 'localhost' : config.host}:${config.port}`,
    );
  } catch (error) {
    await database.close().catch(() => {});
    throw error;
  }
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof DatabaseLockedError) {
    console.error(`\n${error.message}\n`);
  } else {
    console.error(error);
  }
  process.exit(1);
});
