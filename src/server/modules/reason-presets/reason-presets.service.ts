import { asc, count, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { reasonPresets } from '../../db/schema.ts';
import { AppError } from '../../app-error.ts';
import { lockForTransaction } from '../../db/advisory-locks.ts';
import { recordAudit } from '../audit/audit.service.ts';
import { auditActor, type AdminActor } from '../auth/actor.ts';
import { REASON_PRESETS_LIMIT, type ReasonPreset } from '../../../shared/reason-presets.ts';
import { nameOrderOf } from '../../views/name-order.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

type Context = { ip?: string | undefined };

function toView(row: typeof reasonPresets.$inferSelect): ReasonPreset {
  return { id: row.id, label: row.label, createdAt: row.createdAt.toISOString() };
}

/** The school's shared list of reasons, alphabetical. */
export async function listReasonPresets(db: Db): Promise<ReasonPreset[]> {
  const rows = await db
    .select()
    .from(reasonPresets)
    .orderBy(asc(nameOrderOf(reasonPresets.label)), asc(reasonPresets.createdAt));
  return rows.map(toView);
}

export async function createReasonPreset(
  db: Db,
  admin: AdminActor,
  input: { label: string },
  context: Context = {},
): Promise<ReasonPreset> {
  const label = input.label.replace(/\s+/g, ' ').trim();
  return db.transaction(async (tx) => {
    // Serialises concurrent creations so neither the limit nor the no-duplicates rule can be raced past.
    await lockForTransaction(tx, 'reasonPresets');
    const [duplicate] = await tx
      .select({ id: reasonPresets.id })
      .from(reasonPresets)
      .where(eq(sql`lower(${reasonPresets.label})`, label.toLowerCase()))
      .limit(1);
    if (duplicate) throw new AppError('preset_exists', { status: 409 });
    const [total] = await tx.select({ n: count() }).from(reasonPresets);
    if ((total?.n ?? 0) >= REASON_PRESETS_LIMIT) throw new AppError('preset_limit', { status: 409 });
    const [row] = await tx.insert(reasonPresets).values({ label, createdBy: admin.id }).returning();
    await recordAudit(tx, {
      actor: auditActor(admin),
      action: 'reason_preset.create',
      ip: context.ip,
      details: { presetId: row!.id, label },
    });
    return toView(row!);
  });
}

export async function deleteReasonPreset(db: Db, admin: AdminActor, id: string, context: Context = {}): Promise<void> {
  if (!UUID.test(id)) throw new AppError('preset_not_found', { status: 404 });
  await db.transaction(async (tx) => {
    const [row] = await tx.delete(reasonPresets).where(eq(reasonPresets.id, id)).returning();
    if (!row) throw new AppError('preset_not_found', { status: 404 });
    await recordAudit(tx, {
      actor: auditActor(admin),
      action: 'reason_preset.delete',
      ip: context.ip,
      details: { presetId: row.id, label: row.label },
    });
  });
}
