import { loadConfig, ConfigError } from './config.ts';
import { DatabaseLockedError, openDatabase } from './db/client.ts';
import { ensureInitialData } from './seed/seed.ts';
import { buildApp } from './app.ts';
import { startMaintenance } from './maintenance.ts';

async function main(): Promise<void> {
  const config = loadConfig();
  const database = await openDatabase(config);
  let closing = false;
  try {
    const seeded = await database.exclusive(() => ensureInitialData(database.db, config));
    const app = await buildApp(config, database);
    const stopMaintenance = startMaintenance(database, app.log);
    const shutdown = async (signal: string) => {
      if (closing) return;
      closing = true;
      app.log.info({ signal }, 'encerrando');
      stopMaintenance();
      await app.close();
      await database.close();
      process.exit(0);
    };
    process.on('SIGINT', () => void shutdown('SIGINT'));
    process.on('SIGTERM', () => void shutdown('SIGTERM'));
    await app.listen({ port: config.port, host: config.host });
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
