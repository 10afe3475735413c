import path from 'node:path';
import { parseArgs } from 'node:util';
import { BackupError } from '../backup/archive.ts';

/**
 * The command line of backup.ts and restore.ts: one file (resolved) and the boolean `flags` the command takes.
 * Prints the usage and returns undefined for --help; anything else wrong throws a BackupError with the usage.
 */
export function parseBackupArgs(usage: string, flags: string[] = []): { file: string; flags: Set<string> } | undefined {
  let parsed;
  try {
    parsed = parseArgs({
      args: process.argv.slice(2),
      options: { ...Object.fromEntries(flags.map((flag) => [flag, { type: 'boolean' as const }])), help: { type: 'boolean', short: 'h' } },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    throw new BackupError(`${(error as Error).message}\n\n${usage}`);
  }
  if (parsed.values.help) {
    console.log(usage);
    return undefined;
  }
  const [file, ...extra] = parsed.positionals;
  if (!file || extra.length > 0) throw new BackupError(usage);
  return { file: path.resolve(file), flags: new Set(flags.filter((flag) => (parsed.values as Record<string, unknown>)[flag] === true)) };
}
