/**
 * Roots of every query key. Screens extend a root with their parameters, e.g.
 * `[...queryKeys.myOperations, { currency, kind }]`; live events invalidate by root.
 */
export const queryKeys = {
  me: ['me'],
  ranking: ['ranking'],
  directory: ['directory'],
  tags: ['tags'],
  myTransactions: ['my-transactions'],
  myOperations: ['my-operations'],
  myEstelecas: ['my-estelecas'],
  adminOperations: ['admin-operations'],
  adminStudents: ['admin-students'],
  adminDashboard: ['admin-dashboard'],
  adminEstelecas: ['admin-estelecas'],
  adminMeritus: ['admin-meritus'],
  adminSystem: ['admin-system'],
  gallery: ['gallery'],
  /** The school's settings (GET /api/settings); the settings screen's lists extend it. */
  settings: ['settings'],
} as const satisfies Record<string, readonly [string]>;

export type QueryKeyRoot = (typeof queryKeys)[keyof typeof queryKeys];
