import { Coins, RefreshCw } from 'lucide-react';
import { useSession } from '../../lib/session.ts';
import { Button } from '../../ui/button.tsx';
import { Card } from '../../ui/card.tsx';
import { PageHeader } from '../../ui/page-header.tsx';
import { useEveryRankedStudent } from '../../lib/student-queries.ts';
import { Skeleton } from '../../ui/skeleton.tsx';
import { MeritusForm } from './meritus-form.tsx';
import { RecentAdminOperations } from './recent-admin-operations.tsx';

/** /admin/meritus: add or remove Méritus for one student, several, or a whole turma. */
export function AdminMeritusPage() {
  const { user } = useSession();
  const students = useEveryRankedStudent();
  if (user?.role !== 'admin') return null;

  return (
    <div>
      <PageHeader
        icon={Coins}
        title="Gerenciar M$"
        description="Adicione ou remova Méritus de um estudante, de vários ou de uma turma inteira."
      />
      <div className="grid grid-cols-1 items-start gap-6 lg:grid-cols-5">
        <Card title="Nova operação" className="lg:col-span-3">
          {students.isPending ? (
            <div className="flex flex-col gap-3">
              <Skeleton className="h-16" />
              <Skeleton className="h-12" />
              <Skeleton className="h-64" />
            </div>
          ) : students.data ? (
            <MeritusForm students={students.data} />
          ) : (
            <div className="flex flex-col items-center gap-3 py-8 text-center">
              <p className="font-semibold text-slate-900">Erro ao carregar estudantes</p>
              <Button
                variant="secondary"
                onClick={() => void students.refetch()}
                icon={<RefreshCw aria-hidden="true" className="size-4" />}
              >
                Tentar novamente
              </Button>
            </div>
          )}
        </Card>
        <div className="lg:col-span-2">
          <RecentAdminOperations />
        </div>
      </div>
    </div>
  );
}

export default AdminMeritusPage;
