import { RankingScreen } from './ranking-screen.tsx';

/** /student/ranking: the shared ranking with the student's own row highlighted. */
export default function StudentRankingPage() {
  return <RankingScreen highlightSelf />;
}
