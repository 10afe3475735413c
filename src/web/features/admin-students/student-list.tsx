import { memo } from 'react';
import { KeyRound, Pencil, ShieldCheck, Tag, Trash2, type LucideIcon } from 'lucide-react';
import type { AdminStudent } from '../../../shared/admin-students.ts';
import { TAG_NAMES } from '../../../shared/constants.ts';
import { cn } from '../../lib/cn.ts';
import { formatDate, formatMeritus } from '../../lib/format.ts';
import { Avatar } from '../../ui/avatar.tsx';
import { Button } from '../../ui/button.tsx';
import { EmailText } from '../../ui/email-text.tsx';
import { RowActions } from '../../ui/row-actions.tsx';
import { TAG_LOOK, TagBadge } from '../../ui/weekly-tag.tsx';
import { runningTags } from './students-filter.ts';

type StudentAction = (student: AdminStudent) => void;

/** What may be done to a student: tags with the permission to award; editing, passwords and removal only with the permission to manage students. */
export type StudentActions = {
  onTags: StudentAction;
  onEdit?: StudentAction | undefined;
  onResetPassword?: StudentAction | undefined;
  onDelete?: StudentAction | undefined;
  /** The LGPD's (decision 030): the coordination only. */
  onPersonalData?: StudentAction | undefined;
};

/** The actions offered, in their order. */
function offered(actions: StudentActions) {
  return STUDENT_ACTIONS.flatMap((action) => {
    const run = actions[action.key];
    return run ? [{ ...action, run }] : [];
  });
}

/** The actions on a student: icon buttons in the table rows, labelled buttons on the cards. */
const STUDENT_ACTIONS: {
  key: keyof StudentActions;
  Icon: LucideIcon;
  text: string;
  rowLabel: (name: string) => string;
  cardLabel: (name: string) => string;
  cardVariant: 'secondary' | 'ghost';
  danger?: boolean;
}[] = [
  {
    key: 'onEdit',
    Icon: Pencil,
    text: 'Editar',
    rowLabel: (name) => `Editar ${name}`,
    cardLabel: (name) => `Editar ${name}`,
    cardVariant: 'secondary',
  },
  {
    key: 'onTags',
    Icon: Tag,
    text: 'Tags',
    rowLabel: (name) => `Tags de ${name}`,
    cardLabel: (name) => `Tags de ${name}`,
    cardVariant: 'secondary',
  },
  {
    key: 'onResetPassword',
    Icon: KeyRound,
    text: 'Nova senha',
    rowLabel: (name) => `Redefinir senha de ${name}`,
    cardLabel: (name) => `Nova senha de ${name}`,
    cardVariant: 'ghost',
  },
  {
    key: 'onPersonalData',
    Icon: ShieldCheck,
    text: 'Dados pessoais',
    rowLabel: (name) => `Dados pessoais de ${name}`,
    cardLabel: (name) => `Dados pessoais de ${name}`,
    cardVariant: 'ghost',
  },
  {
    key: 'onDelete',
    Icon: Trash2,
    text: 'Excluir',
    rowLabel: (name) => `Excluir ${name}`,
    cardLabel: (name) => `Excluir ${name}`,
    cardVariant: 'ghost',
    danger: true,
  },
];

/** The running tags as small coloured icons; names for screen readers and on hover. */
function TagIcons({ student, now }: { student: AdminStudent; now: number }) {
  const tags = runningTags(student, now);
  if (tags.length === 0) return <span className="text-sm text-slate-500">—</span>;
  return (
    <ul className="flex flex-wrap gap-1" aria-label={`Tags de ${student.name}`}>
      {tags.map((tag) => {
        const look = TAG_LOOK[tag.kind];
        const label = `${TAG_NAMES[tag.kind]} até ${formatDate(tag.expiresAt)}`;
        return (
          <li key={tag.kind} title={label} className={cn('flex size-8 items-center justify-center rounded-full', look.iconBox)}>
            <look.icon aria-hidden="true" className="size-4" />
            <span className="sr-only">{label}</span>
          </li>
        );
      })}
    </ul>
  );
}

type ItemProps = { student: AdminStudent; now: number; actions: StudentActions };

/** One table row; memoised so paging and searching re-render only the rows that change. */
const StudentRow = memo(function StudentRow({ student, now, actions }: ItemProps) {
  return (
    <tr className="hover:bg-slate-50/70">
      <td className="py-3 pr-3 pl-5">
        <div className="flex min-w-0 items-center gap-3">
          <Avatar name={student.name} src={student.photoThumb} size="sm" />
          <div className="min-w-0">
            <p className="max-w-[16rem] font-semibold wrap-anywhere text-slate-900 xl:max-w-[22rem]">{student.name}</p>
            <p className="max-w-[16rem] text-xs text-slate-600 xl:max-w-[22rem]">
              {student.email ? <EmailText email={student.email} /> : 'Sem email'}
            </p>
          </div>
        </div>
      </td>
      <td className="px-3 py-3 font-mono text-slate-800 tabular-nums">{student.studentId}</td>
      <td className="px-3 py-3 whitespace-nowrap text-slate-700">{student.grade}</td>
      <td className="px-3 py-3 text-right font-semibold whitespace-nowrap text-slate-900 tabular-nums">{formatMeritus(student.meritus)}</td>
      <td className="px-3 py-3">
        <TagIcons student={student} now={now} />
      </td>
      <td className="py-3 pr-5 pl-3">
        <RowActions
          size="sm"
          className="justify-end gap-0.5"
          actions={offered(actions).map(({ key, Icon, rowLabel, danger, run }) => ({
            key,
            icon: Icon,
            label: rowLabel(student.name),
            danger,
            onClick: () => run(student),
          }))}
        />
      </td>
    </tr>
  );
});

/** The table's columns and their header classes: the outer ones pad the row's edges, Méritus and Ações sit right. */
const TABLE_COLUMNS: [label: string, className: string][] = [
  ['Aluno', 'py-3 pr-3 pl-5 font-semibold'],
  ['Matrícula', 'px-3 py-3 font-semibold'],
  ['Turma', 'px-3 py-3 font-semibold'],
  ['Méritus', 'px-3 py-3 text-right font-semibold'],
  ['Tags', 'px-3 py-3 font-semibold'],
  ['Ações', 'py-3 pr-5 pl-3 text-right font-semibold'],
];

/** Desktop: one row per student with photo, matrícula, name and email, turma, Méritus, tags and actions. */
export function StudentsTable({ students, now, actions }: { students: AdminStudent[]; now: number; actions: StudentActions }) {
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-left text-sm">
        <caption className="sr-only">Estudantes</caption>
        <thead className="border-b border-slate-200 bg-slate-50 text-xs tracking-wide text-slate-600 uppercase">
          <tr>
            {TABLE_COLUMNS.map(([label, className]) => (
              <th key={label} scope="col" className={className}>
                {label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {students.map((student) => (
            <StudentRow key={student.id} student={student} now={now} actions={actions} />
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** One student as a card (phones); memoised like the table rows. */
const StudentCard = memo(function StudentCard({ student, now, actions }: ItemProps) {
  const tags = runningTags(student, now);
  return (
    <li className="rounded-2xl border border-slate-200 bg-white p-4 shadow-sm">
      <div className="flex items-start gap-3">
        <Avatar name={student.name} src={student.photoThumb} size="lg" />
        <div className="min-w-0 flex-1">
          <p className="font-semibold wrap-anywhere text-slate-900">{student.name}</p>
          <p className="text-sm text-slate-600">
            <span className="font-mono">{student.studentId}</span> · {student.grade}
          </p>
          <p className="text-sm text-slate-600">{student.email ? <EmailText email={student.email} /> : 'Sem email'}</p>
        </div>
      </div>
      <div className="mt-3 flex flex-wrap items-center gap-1.5">
        <span
          className={cn(
            'inline-flex items-center gap-1 rounded-full bg-indigo-50 px-3 py-1 text-xs',
            'font-semibold text-indigo-800 ring-1 ring-indigo-200 ring-inset',
          )}
        >
          <span className="font-medium">Méritus</span>
          <span className="tabular-nums">{formatMeritus(student.meritus)}</span>
        </span>
        {tags.map((tag) => (
          <TagBadge key={tag.kind} kind={tag.kind} expiresAt={tag.expiresAt} />
        ))}
      </div>
      <div className="mt-3 grid grid-cols-2 gap-2 border-t border-slate-100 pt-3 [&>button]:whitespace-nowrap">
        {offered(actions).map(({ key, Icon, text, cardLabel, cardVariant, danger, run }) => (
          <Button
            key={key}
            variant={danger ? 'dangerGhost' : cardVariant}
            size="sm"
            icon={<Icon aria-hidden="true" className="size-4" />}
            onClick={() => run(student)}
            aria-label={cardLabel(student.name)}
          >
            {text}
          </Button>
        ))}
      </div>
    </li>
  );
});

/** Phones: one card per student with the same information and labelled buttons. */
export function StudentCards({ students, now, actions }: { students: AdminStudent[]; now: number; actions: StudentActions }) {
  return (
    <ul className="grid gap-3 md:grid-cols-2" aria-label="Estudantes">
      {students.map((student) => (
        <StudentCard key={student.id} student={student} now={now} actions={actions} />
      ))}
    </ul>
  );
}
