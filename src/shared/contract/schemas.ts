/**
 * The zod schemas the API's routes read and answer with, in one module the contract loads on demand (route.ts). Only
 * the server asks for it: a web page calls a route knowing its method and path alone, so it never downloads these.
 * A name two of these modules both exported would be a TypeScript error here.
 */
export { z } from 'zod';
export * from '../admin-students.ts';
export * from '../archive.ts';
export * from '../auth.ts';
export * from '../constants.ts';
export * from '../dashboard.ts';
export * from '../hall-of-fame.ts';
export * from '../families.ts';
export * from '../ledger.ts';
export * from '../lgpd.ts';
export * from '../mail.ts';
export * from '../reason-presets.ts';
export * from '../reports.ts';
export * from '../responses.ts';
export * from '../school-year.ts';
export * from '../settings.ts';
export * from '../staff.ts';
export * from '../store.ts';
export * from '../student-area.ts';
export * from '../student-access.ts';
export * from '../students.ts';
export * from '../system.ts';
