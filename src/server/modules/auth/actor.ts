import type { AuditActor } from '../audit/audit.service.ts';
import type { StaffRole } from '../../../shared/permissions.ts';

/**
 * Whom a service acts for: every service takes one of these first, by the role it admits. A
 * new role (teacher, guardian) is one more member here, and a service that admits only
 * administrators keeps refusing it at compile time.
 */
export type Actor =
  /** `temporaryPassword`: their password was given by the staff (read with the session; see passwordChangeDue). */
  | { role: 'student'; id: string; name: string; studentId: string; temporaryPassword?: boolean }
  /**
   * A member of the staff, who works in the admin area: `staffRole` says what they may do (src/shared/permissions.ts),
   * `turmaIds` which students a teacher sees and awards (a coordinator: every turma, the list unused).
   */
  | { role: 'admin'; id: string; name: string; email: string; staffRole: StaffRole; turmaIds: readonly string[] }
  /** A responsável (decision 037): reads, through the family routes, only the students linked to them (checked per request). */
  | { role: 'guardian'; id: string; name: string; email: string }
  /** The server itself or an operator's command (the seed, the first start, `npm run admin:create`); `name` says which. */
  | { role: 'system'; name: string };

export type Role = Actor['role'];
export type ActorOf<R extends Role> = Extract<Actor, { role: R }>;
export type StudentActor = ActorOf<'student'>;
export type AdminActor = ActorOf<'admin'>;
export type SystemActor = ActorOf<'system'>;
export type GuardianActor = ActorOf<'guardian'>;

/** Someone signed in: whom a session cookie names. */
export type Principal = Exclude<Actor, SystemActor>;

/** How the audit log names an actor. */
export function auditActor(actor: Actor): AuditActor {
  return actor.role === 'system' ? { kind: 'system', label: actor.name } : { kind: actor.role, id: actor.id, label: actor.name };
}

/** A coordinator acting: the seed, the commands and tests act for the school's first account this way. */
export function coordinatorActor(row: { id: string; name: string; email: string }): AdminActor {
  return { role: 'admin', id: row.id, name: row.name, email: row.email, staffRole: 'coordinator', turmaIds: [] };
}

/** The turmas whose students an actor sees and acts on: null for all of them (the coordination, the system). */
export function turmaScopeOf(actor: Actor): readonly string[] | null {
  return actor.role === 'admin' && actor.staffRole === 'teacher' ? actor.turmaIds : null;
}
