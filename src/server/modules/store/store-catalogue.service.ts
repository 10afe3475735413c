import { count, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client.ts';
import { rowsOf } from '../../db/client.ts';
import { archiveImages, storeItems, storeItemTurmas, storeOrders, turmas } from '../../db/schema.ts';
import { AppError } from '../../app-error.ts';
import { recordAudit } from '../audit/audit.service.ts';
import { auditActor, turmaScopeOf, type AdminActor, type StudentActor } from '../auth/actor.ts';
import type { EventBus } from '../../realtime/event-bus.ts';
import { studentInScope } from '../../views/turma-scope.ts';
import { storageKey } from '../archive/archive-rows.ts';
import { dayIn } from '../../../shared/format.ts';
import type { Currency } from '../../../shared/ledger-types.ts';
import { matchesWords, queryWords, searchTarget } from '../../../shared/student-match.ts';
import {
  adminOrdersQuery,
  STORE_ENTRY_TEXTS,
  STORE_LIMITS,
  storeItemInput,
  storeItemParams,
  storeItemRefusal,
  storeItemUpdate,
  type AdminOrder,
  type AdminOrdersPage,
  type AdminStoreItem,
  type LimitPeriod,
  type MyOrder,
  type OrderStatus,
  type StoreCategory,
  type StoreItem,
  type StudentStoreItem,
} from '../../../shared/store.ts';
import { issueCode, issueFields } from '../../../shared/validation.ts';
import { goalInScope } from './store.service.ts';
import { goalEditRefusal, goalStandings, hasContributions } from './store-goals.service.ts';

/**
 * The Loja's catalogue and lists (issue 35, decision 026): what a student may buy now, their orders, the staff's
 * catalogue (written by the coordination only: the contract's access) and order queue (a teacher: their turmas).
 */
export type CatalogueDeps = { db: Db; events: EventBus };
type Context = { ip?: string | undefined };

/** An item's row as the lists read it, with its turmas (null: all) and, when asked, a student's use of its limit. */
type ItemRow = {
  id: string;
  name: string;
  description: string;
  image_id: string | null;
  price: number | null;
  currency: Currency;
  stock: number | null;
  taken: number;
  limit_count: number | null;
  limit_period: LimitPeriod | null;
  available_from: string | null;
  available_until: string | null;
  turma_ids: string[] | null;
  category: StoreCategory;
  goal: number | null;
  deadline: string | null;
  active: boolean;
};

const ITEM_COLUMNS = sql`i.id, i.name, i.description, i.image_id, i.price, i.currency, i.stock, i.taken, i.limit_count, i.limit_period,
  i.available_from::text AS available_from, i.available_until::text AS available_until, i.category, i.goal, i.deadline::text AS deadline,
  i.active, (SELECT array_agg(t.turma_id ORDER BY t.turma_id) FROM store_item_turmas t WHERE t.item_id = i.id) AS turma_ids`;

function itemView(row: ItemRow): StoreItem {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    imageId: row.image_id,
    price: row.price,
    currency: row.currency,
    stock: row.stock,
    limit: row.limit_count !== null && row.limit_period !== null ? { count: row.limit_count, period: row.limit_period } : null,
    availableFrom: row.available_from,
    availableUntil: row.available_until,
    turmaIds: row.turma_ids,
    category: row.category,
    goal: row.goal,
    deadline: row.deadline,
    active: row.active,
  };
}

const stockLeftOf = (row: ItemRow) => (row.stock === null ? null : Math.max(row.stock - row.taken, 0));

/**
 * GET /api/store/items: the items this student may buy now (active, within their days in the school's time zone, for
 * their turma), in the catalogue's order, with the stock left and what their limit leaves them in its current period.
 * Sold-out items and items beyond their balance stay listed (the cards say so). Turma goals are listed too; their
 * progress (raised, myContribution) is the goals' part.
 */
export async function studentItems(db: Db, student: StudentActor, timeZone: string): Promise<StudentStoreItem[]> {
  const day = dayIn(timeZone, new Date());
  const rows = rowsOf<ItemRow & { used: number | null }>(
    await db.execute(sql`
      SELECT ${ITEM_COLUMNS}, u.used
        FROM store_items i
        JOIN students s ON s.id = ${student.id}
        LEFT JOIN store_limit_uses u
          ON u.item_id = i.id AND u.student_id = s.id AND u.period_start = store_period_start(i.limit_period, ${day}::date)
       WHERE i.active
         AND (i.available_from IS NULL OR i.available_from <= ${day}::date)
         AND (i.available_until IS NULL OR i.available_until >= ${day}::date)
         AND (NOT EXISTS (SELECT 1 FROM store_item_turmas t WHERE t.item_id = i.id)
              OR EXISTS (SELECT 1 FROM store_item_turmas t WHERE t.item_id = i.id AND t.turma_id = s.turma_id))
         AND (i.category <> 'turma' OR (i.deadline >= ${day}::date
              AND NOT EXISTS (SELECT 1 FROM store_goal_progress p WHERE p.item_id = i.id AND p.refunded_at IS NOT NULL)))
       ORDER BY i.position, i.created_at, i.id`),
  );
  const goals = await goalStandings(
    db,
    rows.filter((row) => row.category === 'turma').map((row) => row.id),
    student.id,
  );
  return rows.map((row) => ({
    ...itemView(row),
    stockLeft: stockLeftOf(row),
    limitLeft: row.limit_count === null ? null : Math.max(row.limit_count - (row.used ?? 0), 0),
    raised: goals.get(row.id)?.raised ?? null,
    myContribution: goals.get(row.id)?.myContribution ?? null,
  }));
}

/** GET /api/admin/store/items: the whole catalogue, inactive items included, with what its orders took. */
export async function adminItems(db: DbOrTx): Promise<AdminStoreItem[]> {
  const rows = rowsOf<ItemRow & { orders: number; pending: number }>(
    await db.execute(sql`
      SELECT ${ITEM_COLUMNS},
             (SELECT count(*)::int FROM store_orders o WHERE o.item_id = i.id AND o.status IN ('pending', 'delivered')) AS orders,
             (SELECT count(*)::int FROM store_orders o WHERE o.item_id = i.id AND o.status = 'pending') AS pending
        FROM store_items i
       ORDER BY i.position, i.created_at, i.id`),
  );
  const goals = await goalStandings(
    db,
    rows.filter((row) => row.category === 'turma').map((row) => row.id),
    null,
  );
  return rows.map((row) => ({
    ...itemView(row),
    stockLeft: stockLeftOf(row),
    orders: row.orders,
    pendingOrders: row.pending,
    raised: goals.get(row.id)?.raised ?? null,
  }));
}

async function adminItem(db: DbOrTx, id: string): Promise<AdminStoreItem> {
  const item = (await adminItems(db)).find((row) => row.id === id);
  if (!item) throw new AppError('store_item_not_found');
  return item;
}

function parsedOrRefused<T>(
  result: { success: true; data: T } | { success: false; error: { issues: { path: PropertyKey[]; message: string }[] } },
): T {
  if (result.success) return result.data;
  const { issues } = result.error;
  throw new AppError(issueCode(issues[0]!), { status: 400, fields: issueFields(issues) });
}

const itemIdOf = (id: unknown) => {
  const parsed = storeItemParams.shape.id.safeParse(id);
  if (!parsed.success) throw new AppError('store_item_not_found');
  return parsed.data;
};

/** The image exists in the archive and the turmas in the school (an item names nothing that is not there). */
async function assertReferences(db: DbOrTx, imageId: string | null | undefined, turmaIds: string[] | null | undefined): Promise<void> {
  if (imageId) {
    const [image] = await db.select({ id: archiveImages.id }).from(archiveImages).where(eq(archiveImages.id, imageId));
    if (!image) throw new AppError('store_image_not_found', { status: 400, fields: { imageId: 'Imagem não encontrada no Data-Base' } });
  }
  if (turmaIds && turmaIds.length > 0) {
    const unique = [...new Set(turmaIds)];
    // FOR KEY SHARE: a deletion of one of them under way (settings' deleteTurma) is waited for, then not found.
    const found = await db.select({ id: turmas.id }).from(turmas).where(inArray(turmas.id, unique)).for('key share');
    if (found.length !== unique.length) throw new AppError('store_turmas_invalid', { status: 400 });
  }
}

async function setTurmas(db: DbOrTx, itemId: string, turmaIds: string[] | null): Promise<void> {
  await db.delete(storeItemTurmas).where(eq(storeItemTurmas.itemId, itemId));
  if (turmaIds && turmaIds.length > 0) {
    await db.insert(storeItemTurmas).values([...new Set(turmaIds)].map((turmaId) => ({ itemId, turmaId })));
  }
}

/** Every screen that shows the catalogue: the staff's, and the students of the item's turmas (before and after an edit). */
function publishCatalogue(events: EventBus, tx: DbOrTx, turmaIds: (string[] | null)[]) {
  const all = turmaIds.some((list) => list === null);
  return events.publish(tx, {
    type: 'store',
    studentUuids: [],
    turmaIds: all ? 'all' : [...new Set(turmaIds.flatMap((list) => list ?? []))],
    catalogue: true,
  });
}

/** POST /api/admin/store/items: the new item at the end of the catalogue. */
export async function createItem(deps: CatalogueDeps, admin: AdminActor, input: unknown, context: Context): Promise<AdminStoreItem> {
  const item = parsedOrRefused(storeItemInput.safeParse(input));
  return deps.db.transaction(async (tx) => {
    await assertReferences(tx, item.imageId, item.turmaIds);
    // One creation at a time, so two at once cannot both pass the catalogue's size.
    await tx.execute(sql`LOCK TABLE store_items IN SHARE ROW EXCLUSIVE MODE`);
    const [{ n, last } = { n: 0, last: -1 }] = await tx
      .select({ n: count(), last: sql<number>`coalesce(max(${storeItems.position}), -1)::int` })
      .from(storeItems);
    if (n >= STORE_LIMITS.itemsMax) throw new AppError('store_too_many_items');
    const [row] = await tx
      .insert(storeItems)
      .values({
        name: item.name,
        description: item.description,
        imageId: item.imageId,
        category: item.category,
        currency: item.currency,
        price: item.price,
        goal: item.goal,
        deadline: item.deadline,
        stock: item.stock,
        limitCount: item.limit?.count ?? null,
        limitPeriod: item.limit?.period ?? null,
        availableFrom: item.availableFrom,
        availableUntil: item.availableUntil,
        active: item.active,
        position: last + 1,
        createdBy: admin.id,
      })
      .returning({ id: storeItems.id });
    await setTurmas(tx, row!.id, item.turmaIds);
    await recordAudit(tx, {
      actor: auditActor(admin),
      action: 'store.item.create',
      ip: context.ip,
      details: { itemId: row!.id, name: item.name, message: STORE_ENTRY_TEXTS.itemCreated(item.name) },
    });
    await publishCatalogue(deps.events, tx, [item.turmaIds]);
    return adminItem(tx, row!.id);
  });
}

/** Moves an item to `position` (0 first, past the end: last), the others closing up behind it. */
async function reorder(tx: DbOrTx, itemId: string, position: number): Promise<void> {
  const ids = (await tx.select({ id: storeItems.id }).from(storeItems).orderBy(storeItems.position, storeItems.createdAt, storeItems.id))
    .map((row) => row.id)
    .filter((id) => id !== itemId);
  ids.splice(Math.min(position, ids.length), 0, itemId);
  await tx.execute(sql`UPDATE store_items i SET position = o.n - 1
    FROM unnest(ARRAY[${sql.join(
      ids.map((id) => sql`${id}::uuid`),
      sql`, `,
    )}]) WITH ORDINALITY AS o(id, n)
    WHERE i.id = o.id AND i.position <> o.n - 1`);
}

/**
 * PATCH /api/admin/store/items/:id: the fields sent change; the merged item must hold together (storeItemRefusal),
 * and its stock cannot go below the units its orders took (store_stock_below_orders, which the CHECK holds too).
 */
export async function updateItem(
  deps: CatalogueDeps,
  admin: AdminActor,
  id: unknown,
  input: unknown,
  context: Context,
): Promise<AdminStoreItem> {
  const itemId = itemIdOf(id);
  const changes = parsedOrRefused(storeItemUpdate.safeParse(input));
  return deps.db.transaction(async (tx) => {
    const [before] = rowsOf<ItemRow>(await tx.execute(sql`SELECT ${ITEM_COLUMNS} FROM store_items i WHERE i.id = ${itemId} FOR UPDATE`));
    if (!before) throw new AppError('store_item_not_found');
    const current = itemView(before);
    const merged = { ...current, ...changes };
    const refusal = storeItemRefusal(merged);
    if (refusal) throw new AppError(refusal, { status: 400 });
    if (merged.stock !== null && merged.stock < before.taken) throw new AppError('store_stock_below_orders');
    const goalRefusal = await goalEditRefusal(tx, itemId, merged);
    if (goalRefusal) throw goalRefusal;
    await assertReferences(tx, changes.imageId, changes.turmaIds);
    await tx
      .update(storeItems)
      .set({
        name: merged.name,
        description: merged.description,
        imageId: merged.imageId,
        category: merged.category,
        currency: merged.currency,
        price: merged.price,
        goal: merged.goal,
        deadline: merged.deadline,
        stock: merged.stock,
        limitCount: merged.limit?.count ?? null,
        limitPeriod: merged.limit?.period ?? null,
        availableFrom: merged.availableFrom,
        availableUntil: merged.availableUntil,
        active: merged.active,
        updatedAt: new Date(),
      })
      .where(eq(storeItems.id, itemId));
    if (changes.turmaIds !== undefined) await setTurmas(tx, itemId, changes.turmaIds);
    if (changes.position !== undefined) await reorder(tx, itemId, changes.position);
    await recordAudit(tx, {
      actor: auditActor(admin),
      action: 'store.item.update',
      ip: context.ip,
      details: { itemId, name: merged.name, changed: Object.keys(changes), message: STORE_ENTRY_TEXTS.itemUpdated(merged.name) },
    });
    await publishCatalogue(deps.events, tx, [current.turmaIds, merged.turmaIds]);
    return adminItem(tx, itemId);
  });
}

/**
 * DELETE /api/admin/store/items/:id: an item without orders is deleted; one with any order (pending, delivered or
 * given back) is only deactivated, keeping its orders (a pending one stays to be delivered or refused), and says so.
 */
export async function deleteItem(
  deps: CatalogueDeps,
  admin: AdminActor,
  id: unknown,
  context: Context,
): Promise<{ deleted: boolean; deactivated: boolean; message: string }> {
  const itemId = itemIdOf(id);
  return deps.db.transaction(async (tx) => {
    const [item] = await tx.select().from(storeItems).where(eq(storeItems.id, itemId)).for('update');
    if (!item) throw new AppError('store_item_not_found');
    const turmaIds = (await tx.select({ id: storeItemTurmas.turmaId }).from(storeItemTurmas).where(eq(storeItemTurmas.itemId, itemId))).map(
      (row) => row.id,
    );
    const [orders] = await tx.select({ n: count() }).from(storeOrders).where(eq(storeOrders.itemId, itemId));
    const deleted = orders!.n === 0 && !(await hasContributions(tx, itemId));
    if (deleted) await tx.delete(storeItems).where(eq(storeItems.id, itemId));
    else await tx.update(storeItems).set({ active: false, updatedAt: new Date() }).where(eq(storeItems.id, itemId));
    const message = deleted ? STORE_ENTRY_TEXTS.itemDeleted(item.name) : STORE_ENTRY_TEXTS.itemDeactivated(item.name);
    await recordAudit(tx, {
      actor: auditActor(admin),
      action: deleted ? 'store.item.delete' : 'store.item.deactivate',
      ip: context.ip,
      details: { itemId, name: item.name, message },
    });
    await publishCatalogue(deps.events, tx, [turmaIds.length > 0 ? turmaIds : null]);
    return { deleted, deactivated: !deleted, message };
  });
}

/** How many of a student's latest orders 'Meus pedidos' shows. */
const MY_ORDERS_MAX = 200;

type OrderRow = {
  id: string;
  item_id: string;
  student_id: string | null;
  price: number;
  currency: Currency;
  status: OrderStatus;
  reason: string | null;
  created_at: string;
  decided_at: string | null;
  item_name: string;
};

const ORDER_COLUMNS = sql`o.id, o.item_id, o.student_id, o.price, o.currency, o.status, o.reason,
  to_char(o.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS created_at,
  to_char(o.decided_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS decided_at, i.name AS item_name`;

function orderOf(row: OrderRow) {
  return {
    id: row.id,
    itemId: row.item_id,
    studentId: row.student_id,
    price: row.price,
    currency: row.currency,
    status: row.status,
    reason: row.reason,
    createdAt: row.created_at,
    decidedAt: row.decided_at,
    itemName: row.item_name,
  };
}

/** GET /api/me/orders (and the family area): the student's orders, newest first, with their item's name and image. */
export async function myOrders(db: Db, student: Pick<StudentActor, 'id'>): Promise<MyOrder[]> {
  const rows = rowsOf<OrderRow & { image_id: string | null }>(
    await db.execute(sql`
      SELECT ${ORDER_COLUMNS}, i.image_id FROM store_orders o JOIN store_items i ON i.id = o.item_id
       WHERE o.student_id = ${student.id}
       ORDER BY o.created_at DESC, o.id DESC LIMIT ${MY_ORDERS_MAX}`),
  );
  return rows.map((row) => ({ ...orderOf(row), imageId: row.image_id }));
}

/**
 * GET /api/admin/store/orders: the queue, newest first, filtered by status, turma, item, the days of the school's time
 * zone and a search of the student by name or matrícula (the app's one search rule); a teacher's holds the orders of
 * their turmas' students and their turmas' goals.
 */
export async function adminOrders(db: Db, admin: AdminActor, query: unknown, timeZone: string): Promise<AdminOrdersPage> {
  const filters = parsedOrRefused(adminOrdersQuery.safeParse(query));
  const scope = turmaScopeOf(admin);
  const conditions: SQL[] = [
    sql`(${studentInScope(sql`o.student_id`, scope)} OR (o.student_id IS NULL AND ${goalInScope(scope, sql`o.item_id`)}))`,
  ];
  if (filters.status) conditions.push(sql`o.status = ${filters.status}`);
  if (filters.item) conditions.push(sql`o.item_id = ${filters.item}`);
  if (filters.turma) {
    conditions.push(sql`(s.turma_id = ${filters.turma} OR (o.student_id IS NULL AND (
      NOT EXISTS (SELECT 1 FROM store_item_turmas t WHERE t.item_id = o.item_id)
      OR EXISTS (SELECT 1 FROM store_item_turmas t WHERE t.item_id = o.item_id AND t.turma_id = ${filters.turma}))))`);
  }
  if (filters.from) conditions.push(sql`o.created_at >= (${filters.from}::date::timestamp AT TIME ZONE ${timeZone})`);
  if (filters.to) conditions.push(sql`o.created_at < ((${filters.to}::date + 1)::timestamp AT TIME ZONE ${timeZone})`);
  const words = queryWords(filters.q ?? '');
  if (words.length > 0) {
    const buyers = rowsOf<{ id: string; name: string; student_id: string }>(
      await db.execute(sql`SELECT s.id, s.name, s.student_id FROM students s
        WHERE s.id IN (SELECT DISTINCT student_id FROM store_orders WHERE student_id IS NOT NULL)`),
    );
    const ids = buyers.filter((row) => matchesWords(searchTarget([row.name, row.student_id]), words)).map((row) => row.id);
    conditions.push(
      ids.length > 0
        ? sql`o.student_id IN (${sql.join(
            ids.map((id) => sql`${id}`),
            sql`, `,
          )})`
        : sql`FALSE`,
    );
  }
  const where = sql.join(conditions, sql` AND `);
  const offset = (filters.page - 1) * filters.pageSize;
  const rows = rowsOf<
    OrderRow & {
      matricula: string | null;
      student_name: string | null;
      turma_name: string | null;
      decided_by: string | null;
      goal_turmas: string[] | null;
      total: number;
    }
  >(
    await db.execute(sql`
      SELECT ${ORDER_COLUMNS}, s.student_id AS matricula, s.name AS student_name, t.name AS turma_name, a.name AS decided_by,
             CASE WHEN o.student_id IS NULL THEN (SELECT array_agg(gt.name ORDER BY gt.position) FROM store_item_turmas it
                                                   JOIN turmas gt ON gt.id = it.turma_id WHERE it.item_id = o.item_id) END AS goal_turmas,
             count(*) OVER ()::int AS total
        FROM store_orders o
        JOIN store_items i ON i.id = o.item_id
        LEFT JOIN students s ON s.id = o.student_id
        LEFT JOIN turmas t ON t.id = s.turma_id
        LEFT JOIN admins a ON a.id = o.decided_by
       WHERE ${where}
       ORDER BY o.created_at DESC, o.id DESC
       LIMIT ${filters.pageSize} OFFSET ${offset}`),
  );
  let total = rows[0]?.total ?? 0;
  if (rows.length === 0 && offset > 0) {
    const [counted] = rowsOf<{ n: number }>(
      await db.execute(sql`SELECT count(*)::int AS n FROM store_orders o LEFT JOIN students s ON s.id = o.student_id WHERE ${where}`),
    );
    total = counted?.n ?? 0;
  }
  const items: AdminOrder[] = rows.map((row) => ({
    ...orderOf(row),
    student:
      row.student_id && row.matricula !== null
        ? { id: row.student_id, studentId: row.matricula, name: row.student_name!, turma: row.turma_name ?? '' }
        : null,
    turmas: row.student_id ? (row.turma_name ? [row.turma_name] : []) : (row.goal_turmas ?? []),
    decidedBy: row.decided_by,
  }));
  return { items, total, page: filters.page };
}

/** The stored object of an item's image (its WebP preview, or the original when it has none), for anyone signed in. */
export async function itemImage(db: Db, id: unknown) {
  const itemId = itemIdOf(id);
  const [row] = await db
    .select({ image: archiveImages })
    .from(storeItems)
    .innerJoin(archiveImages, eq(archiveImages.id, storeItems.imageId))
    .where(eq(storeItems.id, itemId));
  if (!row) throw new AppError('store_item_not_found');
  const { image } = row;
  const preview = image.hasVariants;
  return {
    imageId: image.id,
    objectKey: storageKey(image.fileKey, preview ? 'preview' : 'original'),
    contentType: preview ? 'image/webp' : image.mimeType,
    ...(preview ? {} : { size: image.fileSize }),
    cacheControl: 'private, no-cache',
    etag: `"${image.fileKey}-store-${preview ? 'preview' : 'original'}-${image.fileSize}"`,
    disposition: {
      type: image.mimeType === 'image/svg+xml' && !preview ? ('attachment' as const) : ('inline' as const),
      fileName: image.fileName,
    },
  };
}
