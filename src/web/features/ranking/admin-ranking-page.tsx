import { RankingScreen } from './ranking-screen.tsx';

/** /admin/ranking: the shared ranking, without a row of one's own. */
export default function AdminRankingPage() {
  return <RankingScreen highlightSelf={false} />;
}
