import { adminStudents } from './admin-students.ts';
import { archive } from './archive.ts';
import { auth } from './auth.ts';
import { dashboard } from './dashboard.ts';
import { events } from './events.ts';
import { hallOfFame } from './hall-of-fame.ts';
import { families } from './families.ts';
import { ledger } from './ledger.ts';
import { lgpd } from './lgpd.ts';
import { mail } from './mail.ts';
import { reasonPresets } from './reason-presets.ts';
import { reports } from './reports.ts';
import { schoolYear } from './school-year.ts';
import type { Route } from './route.ts';
import { settings } from './settings.ts';
import { staff } from './staff.ts';
import { store } from './store.ts';
import { students } from './students.ts';
import { system } from './system.ts';
import { tags } from './tags.ts';

/** Every /api route by domain: the server registers each one, the web calls them (decision 016). */
export const routes = {
  auth,
  students,
  ledger,
  tags,
  adminStudents,
  dashboard,
  reasonPresets,
  archive,
  reports,
  settings,
  staff,
  store,
  system,
  events,
  schoolYear,
  lgpd,
  hallOfFame,
  families,
  mail,
};

/** Every route, once. */
export const ALL_ROUTES: readonly Route[] = Object.values(routes).flatMap((domain): Route[] => Object.values(domain));
