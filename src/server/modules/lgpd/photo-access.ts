import type { FastifyInstance, FastifyRequest } from 'fastify';
import { eq, or } from 'drizzle-orm';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { students } from '../../db/schema.ts';
import { AppError } from '../../app-error.ts';
import { linkedChildren } from '../../views/guardian-links.ts';
import { sessionCookieName, TOKEN_SHAPE } from '../../plugins/auth.ts';

/** A stored photo's own address for its thumbnail's ('….thumb.webp' → '….webp'); the address itself otherwise. */
function photoOf(address: string): string {
  return address.replace(/\.thumb\.webp$/, '.webp');
}

/**
 * The files under /uploads/ that are a student's photo (or its thumbnail) are refused to whoever is not allowed to see
 * it (decision 030): without the school's record of image consent, only the staff, the student themself and their
 * guardians (decision 037). Other
 * files there (the logo, photos no current student has) are served as before. The staff pay no query: the session cache
 * answers who they are.
 */
export function guardStudentPhotos(files: FastifyInstance, config: Config, db: Db): void {
  const cookie = sessionCookieName(config);
  const viewerOf = async (request: FastifyRequest) => {
    const token = request.cookies[cookie];
    return token && TOKEN_SHAPE.test(token) ? files.sessionCache.resolve(token) : null;
  };
  files.addHook('onRequest', async (request) => {
    const address = request.url.split('?')[0]!;
    if (!address.startsWith('/uploads/') || address.startsWith('/uploads/archive/')) return;
    const viewer = await viewerOf(request);
    if (viewer?.role === 'admin') return;
    const [owner] = await db
      .select({ id: students.id, consent: students.imageConsent })
      .from(students)
      .where(or(eq(students.photoUrl, address), eq(students.photoUrl, photoOf(address))))
      .limit(1);
    if (!owner || owner.consent || viewer?.id === owner.id) return;
    if (viewer?.role === 'guardian' && (await linkedChildren(db, viewer.id, [owner.id])).length > 0) return;
    throw new AppError('not_found');
  });
  // What one viewer may see another may not: no shared cache (a school's proxy) keeps these files for everyone.
  files.addHook('onSend', async (request, reply) => {
    const cacheControl = reply.getHeader('cache-control');
    if (request.url.startsWith('/uploads/') && typeof cacheControl === 'string')
      reply.header('cache-control', cacheControl.replace(/\bpublic\b/, 'private'));
  });
}
