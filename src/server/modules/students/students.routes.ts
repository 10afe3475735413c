import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../deps.ts';
import { route } from '../../contract-routes.ts';
import { routes } from '../../../shared/contract/routes.ts';
import { principalOf, studentOf } from '../../plugins/auth.ts';
import { rankingPrivacyOf } from '../../views/student-privacy.ts';
import { rankingPage, setRankingVisibility, transferDirectory } from './students.service.ts';

export async function studentsRoutes(app: FastifyInstance, { database, ranking, settings, events }: AppDeps): Promise<void> {
  route(app, routes.students.ranking, async (request) => {
    const [snapshot, { rules, turmas }] = await Promise.all([ranking.current(), settings.get()]);
    return rankingPage(snapshot, principalOf(request), rankingPrivacyOf(rules), turmas, request.query);
  });

  route(app, routes.students.directory, async (request) =>
    transferDirectory(database.db, studentOf(request).id, rankingPrivacyOf((await settings.get()).rules), request.query),
  );

  route(app, routes.students.rankingVisibility, async (request) =>
    setRankingVisibility({ db: database.db, events, settings }, studentOf(request), request.body.hidden),
  );
}
