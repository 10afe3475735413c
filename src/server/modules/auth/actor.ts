import type { AuditActor } from '../audit/audit.service.ts';

/**
 * Whom a service acts for: every service takes one of these first, by the role it admits. A
 * new role (teacher, guardian) is one more member here, and a service that admits only
 * administrators keeps refusing it at compile time.
 */
export type Actor =
  | { role: 'student'; id: string; name: string; studentId: string }
  | { role: 'admin'; id: string; name: string; email: string }
  /** The server itself or an operator's command (the seed, the first start, `npm run admin:create`); `name` says which. */
  | { role: 'system'; name: string };

export type Role = Actor['role'];
export type ActorOf<R extends Role> = Extract<Actor, { role: R }>;
export type StudentActor = ActorOf<'student'>;
export type AdminActor = ActorOf<'admin'>;
export type SystemActor = ActorOf<'system'>;

/** Someone signed in: whom a session cookie names. */
export type Principal = Exclude<Actor, SystemActor>;

/** How the audit log names an actor. */
export function auditActor(actor: Actor): AuditActor {
  return actor.role === 'system' ? { kind: 'system', label: actor.name } : { kind: actor.role, id: actor.id, label: actor.name };
}
