import { useId, useState, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import {
  Cake,
  Coins,
  GraduationCap,
  KeyRound,
  Mail,
  PiggyBank,
  RefreshCw,
  Sparkles,
  Trophy,
  UserRound,
  type LucideIcon,
} from 'lucide-react';
import { toast } from 'react-hot-toast';
import type { SelfStudent } from '../../../shared/auth.ts';
import { POLL_MS } from '../../../shared/constants.ts';
import { formatDate, formatMeritus, formatNumber } from '../../lib/format.ts';
import { routes } from '../../../shared/contract/routes.ts';
import { queryKeyOf, routeKey } from '../../lib/query-keys.ts';
import { useFallbackInterval } from '../../lib/live-query.ts';
import { useActiveTags, useStudentSummary } from '../../lib/student-queries.ts';
import { toastError } from '../../lib/toast.ts';
import { useSession } from '../../lib/session.ts';
import { Avatar } from '../../ui/avatar.tsx';
import { Button } from '../../ui/button.tsx';
import { Card } from '../../ui/card.tsx';
import { EmailText } from '../../ui/email-text.tsx';
import { PageHeader } from '../../ui/page-header.tsx';
import { TagBadge } from '../../ui/weekly-tag.tsx';
import { FormModal } from '../../ui/form-modal.tsx';
import { OWN_PASSWORD_TEXTS } from '../../../shared/student-access.ts';
import { ChangePasswordForm, useChangeOwnPassword } from './change-password-form.tsx';
import { RankingVisibilityCard } from './ranking-visibility-card.tsx';

const NOT_INFORMED = 'Não informado';

function InfoRow({ icon: Icon, label, value }: { icon: LucideIcon; label: string; value: ReactNode }) {
  return (
    <li className="flex items-start gap-3 py-3">
      <span aria-hidden="true" className="flex size-10 shrink-0 items-center justify-center rounded-xl bg-slate-100 text-slate-600">
        <Icon className="size-5" />
      </span>
      <div className="min-w-0">
        <p className="text-xs font-medium text-slate-600">{label}</p>
        <p className={value ? 'text-sm font-semibold wrap-anywhere text-slate-900' : 'text-sm text-slate-600 italic'}>
          {value ?? NOT_INFORMED}
        </p>
      </div>
    </li>
  );
}

/**
 * The student's own weekly tags. Live events refresh them at once; while the stream is
 * down they are polled every 3 s (the spec's interval), and the whole student record is
 * reloaded every 15 s.
 */
function useOwnTags(student: SelfStudent) {
  const tags = useActiveTags(POLL_MS.profileTags);
  return tags.data ? tags.data.filter((tag) => tag.student.id === student.id) : student.tags;
}

function ProfileCard({ student }: { student: SelfStudent }) {
  const tags = useOwnTags(student);
  return (
    <Card className="overflow-hidden" padded={false}>
      <div className="h-20 bg-gradient-to-br from-indigo-600 to-violet-600 sm:h-24" />
      <div className="flex flex-col items-center gap-3 px-5 pb-6 text-center sm:flex-row sm:items-end sm:gap-5 sm:text-left">
        <Avatar name={student.name} src={student.photo} size="xl" className="-mt-12 ring-4" />
        <div className="min-w-0 flex-1">
          <h2 className="text-xl font-bold text-slate-900 sm:text-2xl">{student.name}</h2>
          <p className="text-sm text-slate-600">
            Matrícula {student.studentId} · {student.grade}
          </p>
          {tags.length > 0 && (
            <ul aria-label="Suas tags ativas" className="mt-2 flex flex-wrap justify-center gap-2 sm:justify-start">
              {tags.map((tag) => (
                <li key={tag.kind}>
                  <TagBadge kind={tag.kind} expiresAt={tag.expiresAt} />
                </li>
              ))}
            </ul>
          )}
        </div>
        <div className="rounded-2xl bg-amber-50 px-4 py-3 text-center ring-1 ring-amber-200">
          <p className="text-xs font-semibold text-amber-900">Saldo</p>
          <p className="text-2xl font-extrabold tracking-tight text-slate-900">{formatMeritus(student.meritus)}</p>
        </div>
      </div>
    </Card>
  );
}

function StatRow({
  icon: Icon,
  tone,
  label,
  value,
  detail,
}: {
  icon: LucideIcon;
  tone: string;
  label: string;
  value: ReactNode;
  detail?: string | undefined;
}) {
  return (
    <li className="flex items-center gap-3 py-3">
      <span aria-hidden="true" className={`flex size-10 shrink-0 items-center justify-center rounded-xl ${tone}`}>
        <Icon className="size-5" />
      </span>
      <p className="min-w-0 flex-1 text-sm font-medium text-slate-700">
        {label}
        {detail && <span className="block text-xs font-normal text-slate-600">{detail}</span>}
      </p>
      <p className="text-lg font-bold text-slate-900 tabular-nums">{value}</p>
    </li>
  );
}

function Stats({ student }: { student: SelfStudent }) {
  const summary = useStudentSummary(POLL_MS.profileFullReload);
  const rank = summary.isPending ? (
    <span aria-hidden="true" className="inline-block h-6 w-12 animate-pulse rounded-lg bg-slate-200 align-middle" />
  ) : summary.data ? (
    `#${summary.data.rank.position}`
  ) : (
    'N/A'
  );
  return (
    <Card title="Estatísticas">
      <ul className="divide-y divide-slate-100" data-testid="profile-stats">
        <StatRow icon={Coins} tone="bg-amber-100 text-amber-700" label="Méritus Atuais" value={formatMeritus(student.meritus)} />
        <StatRow icon={PiggyBank} tone="bg-emerald-100 text-emerald-700" label="Total Ganho" value={formatMeritus(student.totalEarned)} />
        <StatRow
          icon={Trophy}
          tone="bg-violet-100 text-violet-700"
          label="Posição no Ranking"
          detail={summary.data ? `entre ${formatNumber(summary.data.rank.total)} estudantes` : undefined}
          value={rank}
        />
        <StatRow icon={Sparkles} tone="bg-emerald-100 text-emerald-700" label="Estelecas" value={formatNumber(student.estelecas)} />
      </ul>
    </Card>
  );
}

/** Meu Perfil › Alterar senha: the current password and a new one; the student's other sessions end. */
function PasswordCard() {
  const [open, setOpen] = useState(false);
  return (
    <Card title="Senha">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <p className="text-sm text-slate-700">Troque a sua senha quando quiser. Os outros aparelhos em que você entrou saem da conta.</p>
        <Button variant="secondary" onClick={() => setOpen(true)} icon={<KeyRound aria-hidden="true" className="size-4" />}>
          {OWN_PASSWORD_TEXTS.title}
        </Button>
      </div>
      {open && <ChangePasswordDialog onClose={() => setOpen(false)} />}
    </Card>
  );
}

function ChangePasswordDialog({ onClose }: { onClose: () => void }) {
  const formId = useId();
  const change = useChangeOwnPassword();
  return (
    <FormModal
      title={OWN_PASSWORD_TEXTS.title}
      formId={formId}
      pending={change.isPending}
      submitLabel={OWN_PASSWORD_TEXTS.submit}
      onClose={onClose}
      size="sm"
    >
      <ChangePasswordForm
        formId={formId}
        change={change}
        onChanged={(message) => {
          toast.success(message);
          onClose();
        }}
      />
    </FormModal>
  );
}

/** /student/profile: photo, identity, tags, balance, personal information and statistics. */
export default function StudentProfilePage() {
  const client = useQueryClient();
  const fullReload = useFallbackInterval(POLL_MS.profileFullReload);
  const { user } = useSession({ refetchInterval: fullReload });
  const [refreshing, setRefreshing] = useState(false);
  if (user?.role !== 'student') return null;
  const student = user.student;

  const refresh = async () => {
    setRefreshing(true);
    try {
      await Promise.all([
        client.refetchQueries({ queryKey: queryKeyOf(routes.auth.me), exact: true }, { throwOnError: true }),
        client.refetchQueries({ queryKey: routeKey(routes.students.summary) }, { throwOnError: true }),
        client.refetchQueries({ queryKey: routeKey(routes.tags.active) }, { throwOnError: true }),
      ]);
      toast.success('Perfil atualizado');
    } catch (error) {
      toastError(error);
    } finally {
      setRefreshing(false);
    }
  };

  const actions = (
    <Button
      variant="secondary"
      onClick={() => void refresh()}
      loading={refreshing}
      icon={<RefreshCw aria-hidden="true" className="size-4" />}
    >
      Atualizar
    </Button>
  );

  return (
    <div>
      <PageHeader title="Meu Perfil" description="Seus dados, tags e estatísticas" icon={UserRound} actions={actions} />
      <div className="flex flex-col gap-6">
        <ProfileCard student={student} />
        <div className="grid grid-cols-1 gap-6 lg:grid-cols-2">
          <Card title="Informações Pessoais">
            <ul className="divide-y divide-slate-100">
              <InfoRow icon={UserRound} label="Nome completo" value={student.name} />
              <InfoRow icon={Mail} label="Email" value={student.email && <EmailText email={student.email} />} />
              <InfoRow icon={GraduationCap} label="Turma" value={student.grade} />
              <InfoRow icon={Cake} label="Data de nascimento" value={student.birthDate ? formatDate(student.birthDate) : null} />
            </ul>
          </Card>
          <Stats student={student} />
        </div>
        <PasswordCard />
        <RankingVisibilityCard student={student} />
      </div>
    </div>
  );
}
