import { and, asc, desc, eq, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { archiveFavourites, archiveImages } from '../../db/schema.ts';
import { AppError } from '../../app-error.ts';
import type { AdminActor as Admin } from '../auth/actor.ts';
import { archiveListQuery, type ArchiveFacets, type ArchiveItem, type ArchivePage, type ArchiveStats } from '../../../shared/archive.ts';
import { foldText } from '../../../shared/student-match.ts';
import type { z } from 'zod';
import { itemColumns, toItem } from './archive-rows.ts';
import { nameOrderOf } from '../../views/name-order.ts';

export async function getImage(db: Db, admin: Admin, id: string): Promise<ArchiveItem> {
  const [found] = await db.select(itemColumns(admin.id)).from(archiveImages).where(eq(archiveImages.id, id));
  if (!found) throw new AppError('archive_image_not_found', { status: 404 });
  return toItem(found.row, found.isFavourite);
}

type ListQuery = z.output<typeof archiveListQuery>;

const SORT_COLUMNS = {
  date: archiveImages.createdAt,
  name: nameOrderOf(archiveImages.fileName),
  size: archiveImages.fileSize,
  usage: archiveImages.usageCount,
  downloads: archiveImages.downloadCount,
} as const;

/** The cursor is the last row's sort value (as PostgreSQL writes it, so timestamps keep their microseconds) and id. */
function encodeCursor(value: string, id: string): string {
  return Buffer.from(JSON.stringify([value, id])).toString('base64url');
}

function decodeCursor(cursor: string): [string, string] {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (
      Array.isArray(parsed) &&
      parsed.length === 2 &&
      typeof parsed[0] === 'string' &&
      parsed[0].length <= 300 &&
      typeof parsed[1] === 'string' &&
      /^[0-9a-f-]{36}$/.test(parsed[1])
    ) {
      return [parsed[0], parsed[1]];
    }
  } catch {
    // Falls through to the refusal.
  }
  throw new AppError('validation');
}

function filters(query: ListQuery, adminUuid: string): SQL[] {
  const conditions: SQL[] = [];
  if (query.q)
    conditions.push(
      sql`${archiveImages.searchText} LIKE ${`%${foldText(query.q)
        .toLowerCase()
        .replace(/[\\%_]/g, '\\$&')}%`}`,
    );
  if (query.featured !== undefined) conditions.push(eq(archiveImages.isFeatured, query.featured));
  if (query.public !== undefined)
    conditions.push(query.public ? eq(archiveImages.accessLevel, 'public') : sql`${archiveImages.accessLevel} <> 'public'`);
  if (query.active !== undefined) conditions.push(eq(archiveImages.isActive, query.active));
  if (query.category) conditions.push(eq(archiveImages.category, query.category));
  if (query.uploader) conditions.push(eq(archiveImages.uploadedBy, query.uploader));
  if (query.accessLevel) conditions.push(eq(archiveImages.accessLevel, query.accessLevel));
  if (query.kind) conditions.push(eq(archiveImages.kind, query.kind));
  if (query.albumId) conditions.push(eq(archiveImages.albumId, query.albumId));
  if (query.favourites !== undefined) {
    const exists = sql`EXISTS (SELECT 1 FROM ${archiveFavourites} f WHERE f.image_id = ${archiveImages.id} AND f.admin_id = ${adminUuid})`;
    conditions.push(query.favourites ? exists : sql`NOT ${exists}`);
  }
  return conditions;
}

/** A page of the archive, filtered and sorted in SQL (an index range per sort), with the count of every match on the first page. */
export async function listImages(db: Db, admin: Admin, query: ListQuery): Promise<ArchivePage> {
  const column = SORT_COLUMNS[query.sort];
  const conditions = filters(query, admin.id);
  const where = conditions.length > 0 ? and(...conditions) : undefined;
  const pageConditions = [...conditions];
  if (query.cursor) {
    const [value, id] = decodeCursor(query.cursor);
    const typed = query.sort === 'date' ? sql`${value}::timestamptz` : query.sort === 'name' ? sql`${value}` : sql`${value}::integer`;
    pageConditions.push(
      query.order === 'asc'
        ? sql`(${column}, ${archiveImages.id}) > (${typed}, ${id}::uuid)`
        : sql`(${column}, ${archiveImages.id}) < (${typed}, ${id}::uuid)`,
    );
  }
  const direction = query.order === 'asc' ? asc : desc;
  const [rows, [counted]] = await Promise.all([
    db
      .select({ ...itemColumns(admin.id), sortValue: sql<string>`${column}::text` })
      .from(archiveImages)
      .where(pageConditions.length > 0 ? and(...pageConditions) : undefined)
      .orderBy(direction(column), direction(archiveImages.id))
      .limit(query.limit + 1),
    query.cursor
      ? []
      : db
          .select({ total: sql<number>`count(*)::int` })
          .from(archiveImages)
          .where(where),
  ]);
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  return {
    items: page.map(({ row, isFavourite }) => toItem(row, isFavourite)),
    nextCursor: rows.length > query.limit && last ? encodeCursor(last.sortValue, last.row.id) : null,
    total: query.cursor ? null : (counted?.total ?? 0),
  };
}

export async function archiveSummary(db: Db): Promise<{ stats: ArchiveStats; facets: ArchiveFacets }> {
  const [[stats], categories, uploaders, albums] = await Promise.all([
    db
      .select({
        total: sql<number>`count(*)::int`,
        active: sql<number>`count(*) FILTER (WHERE ${archiveImages.isActive})::int`,
        public: sql<number>`count(*) FILTER (WHERE ${archiveImages.accessLevel} = 'public')::int`,
        featured: sql<number>`count(*) FILTER (WHERE ${archiveImages.isFeatured})::int`,
        usage: sql<number>`coalesce(sum(${archiveImages.usageCount}), 0)::bigint`,
        downloads: sql<number>`coalesce(sum(${archiveImages.downloadCount}), 0)::bigint`,
        totalSize: sql<number>`coalesce(sum(${archiveImages.fileSize}), 0)::bigint`,
      })
      .from(archiveImages),
    db
      .select({ category: archiveImages.category, count: sql<number>`count(*)::int` })
      .from(archiveImages)
      .groupBy(archiveImages.category)
      .orderBy(archiveImages.category),
    db
      .select({
        id: archiveImages.uploadedBy,
        name: sql<string | null>`max(${archiveImages.uploaderName})`,
        email: sql<string | null>`max(${archiveImages.uploaderEmail})`,
        count: sql<number>`count(*)::int`,
      })
      .from(archiveImages)
      .groupBy(archiveImages.uploadedBy)
      .orderBy(desc(sql`count(*)`)),
    db
      .select({
        albumId: sql<string>`${archiveImages.albumId}`,
        albumName: sql<string>`max(${archiveImages.albumName})`,
        count: sql<number>`count(*)::int`,
      })
      .from(archiveImages)
      .where(sql`${archiveImages.albumId} IS NOT NULL`)
      .groupBy(archiveImages.albumId)
      .orderBy(nameOrderOf(sql`max(${archiveImages.albumName})`)),
  ]);
  return {
    stats: {
      total: stats!.total,
      active: stats!.active,
      public: stats!.public,
      featured: stats!.featured,
      usage: Number(stats!.usage),
      downloads: Number(stats!.downloads),
      totalSize: Number(stats!.totalSize),
    },
    facets: { categories: categories as ArchiveFacets['categories'], uploaders, albums },
  };
}
