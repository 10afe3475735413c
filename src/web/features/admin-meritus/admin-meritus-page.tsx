import { Coins } from 'lucide-react';
import { useSession } from '../../lib/session.ts';
import { Card } from '../../ui/card.tsx';
import { PageHeader } from '../../ui/page-header.tsx';
import { MeritusForm } from './meritus-form.tsx';
import { RecentAdminOperations } from './recent-admin-operations.tsx';
import { isStaffUser } from '../../../shared/areas.ts';

/** /admin/meritus: add or remove Méritus for one student, several, or a whole turma. */
export function AdminMeritusPage() {
  const { user } = useSession();
  if (!isStaffUser(user)) return null;

  return (
    <div>
      <PageHeader
        icon={Coins}
        title="Gerenciar M$"
        description="Adicione ou remova Méritus de um estudante, de vários ou de uma turma inteira."
      />
      <div className="grid grid-cols-1 items-start gap-6 lg:grid-cols-5">
        <Card title="Nova operação" className="lg:col-span-3">
          <MeritusForm />
        </Card>
        <div className="lg:col-span-2">
          <RecentAdminOperations />
        </div>
      </div>
    </div>
  );
}

export default AdminMeritusPage;
