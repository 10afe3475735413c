import type { Config } from './config.ts';
import type { Database } from './db/client.ts';
import type { EventBus } from './realtime/event-bus.ts';
import type { LiveHub } from './realtime/live-hub.ts';
import type { SettingsStore } from './modules/settings/settings.service.ts';
import type { StudentRemovalStep } from './modules/students/admin-students.service.ts';
import type { RankingStore } from './modules/students/ranking-store.ts';
import type { FileStorage } from './storage/file-storage.ts';
import type { EarnedBoards } from './views/earned-board.ts';

/** What every module's routes receive from buildApp (app.ts), which registers them. */
export type AppDeps = {
  config: Config;
  database: Database;
  events: EventBus;
  /** Tells this instance's open event streams what changed (decision 019). */
  live: LiveHub;
  settings: SettingsStore;
  storage: FileStorage;
  /** This instance's ranking, kept as changes are heard (issue 33). */
  ranking: RankingStore;
  /** This instance's boards of Méritus earned per school year or period (GET /api/ranking?by=earned, decision 036). */
  earned: EarnedBoards;
  /** Done inside a student's removal, before they leave: the Loja's pending orders refused and refunded. */
  beforeStudentRemoval: StudentRemovalStep;
};
