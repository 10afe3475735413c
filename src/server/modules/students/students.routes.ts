import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../deps.ts';
import { route } from '../../contract-routes.ts';
import { routes } from '../../../shared/contract/routes.ts';
import { principalOf, studentOf } from '../../plugins/auth.ts';
import { rankingPrivacyOf } from '../../views/student-privacy.ts';
import { earnedRanking, rankingPage, setRankingVisibility, transferDirectory } from './students.service.ts';
import { CURRENT } from '../../../shared/school-year.ts';

export async function studentsRoutes(app: FastifyInstance, { database, ranking, earned, settings, events }: AppDeps): Promise<void> {
  route(app, routes.students.ranking, async (request) => {
    const { by, year, period, ...page } = request.query;
    // By what was earned: in the year or period asked for, this bimestre when neither is (decision 036).
    const [snapshot, { rules, turmas }, board] = await Promise.all([
      ranking.current(),
      settings.get(),
      by === 'earned' ? earned.of(year === undefined && period === undefined ? { period: CURRENT } : { year, period }) : undefined,
    ]);
    const answer = rankingPage(
      board ? earnedRanking(snapshot, board) : snapshot,
      principalOf(request),
      rankingPrivacyOf(rules),
      turmas,
      page,
    );
    return board ? { ...answer, span: { from: board.from, to: board.to, label: board.label } } : answer;
  });

  route(app, routes.students.directory, async (request) =>
    transferDirectory(database.db, studentOf(request).id, rankingPrivacyOf((await settings.get()).rules), request.query),
  );

  route(app, routes.students.rankingVisibility, async (request) =>
    setRankingVisibility({ db: database.db, events, settings }, studentOf(request), request.body.hidden),
  );
}
