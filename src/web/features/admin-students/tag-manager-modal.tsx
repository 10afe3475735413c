import { useState } from 'react';
import { ADMIN_STUDENT_TEXTS, type AdminStudent } from '../../../shared/admin-students.ts';
import {
  TAG_DURATION_MAX_DAYS,
  TAG_DURATION_MIN_DAYS,
  TAG_KINDS,
  TAG_NAMES,
  WEEKLY_TAG_DAYS,
  type TagKind,
} from '../../../shared/constants.ts';
import { ERROR_MESSAGES } from '../../../shared/errors.ts';
import { isRefusal } from '../../lib/api.ts';
import { cn } from '../../lib/cn.ts';
import { formatDate } from '../../lib/format.ts';
import { useSchoolSettings } from '../../lib/school-settings.ts';
import { toast } from '../../lib/toast.ts';
import { Avatar } from '../../ui/avatar.tsx';
import { Button } from '../../ui/button.tsx';
import { Modal } from '../../ui/modal.tsx';
import { TextField } from '../../ui/text-field.tsx';
import { daysLeftText, TAG_LOOK } from '../../ui/weekly-tag.tsx';
import { runningTags } from './students-filter.ts';
import { useTagToggle } from './students-queries.ts';

/** The tag duration typed: a whole number of days from 1 to 365, or null. */
export function tagDays(text: string): number | null {
  const trimmed = text.trim();
  if (!/^\d+$/.test(trimmed)) return null;
  const days = Number(trimmed);
  return days >= TAG_DURATION_MIN_DAYS && days <= TAG_DURATION_MAX_DAYS ? days : null;
}

/** Toggles the three weekly tags of one student; a new tag lasts the chosen number of days. */
export function TagManagerModal({ student, onClose, now }: { student: AdminStudent; onClose: () => void; now: number }) {
  const defaultDays = useSchoolSettings().data?.rules.defaultTagDays ?? WEEKLY_TAG_DAYS;
  const [daysText, setDaysText] = useState(String(defaultDays));
  const [problem, setProblem] = useState<string | null>(null);
  const toggle = useTagToggle();
  const days = tagDays(daysText);
  const active = new Map(runningTags(student, now).map((tag) => [tag.kind, tag]));

  const onToggle = (kind: TagKind) => {
    const add = !active.has(kind);
    if (add && days === null) return;
    setProblem(null);
    toggle.mutate(
      { student, kind, add, days: days ?? defaultDays },
      {
        onSuccess: (result) => toast.success(result.message),
        onError: (error) => {
          toast.error(ADMIN_STUDENT_TEXTS.tagsError);
          if (isRefusal(error)) setProblem(error.message);
        },
      },
    );
  };

  return (
    <Modal
      open
      onClose={onClose}
      dismissible={!toggle.isPending}
      title="Gerenciar Tags"
      description="Ative ou desative as tags da semana. Uma tag expira sozinha ao fim da duração."
      footer={
        <Button variant="secondary" onClick={onClose} disabled={toggle.isPending}>
          Concluir
        </Button>
      }
    >
      <div className="flex flex-col gap-4">
        <div className="flex items-center gap-3 rounded-2xl bg-slate-50 p-3 ring-1 ring-slate-200">
          <Avatar name={student.name} src={student.photoThumb} size="md" />
          <div className="min-w-0">
            <p className="font-semibold wrap-anywhere text-slate-900">{student.name}</p>
            <p className="text-sm text-slate-600">
              {student.studentId} · {student.grade}
            </p>
          </div>
        </div>
        <TextField
          label="Duração (dias)"
          type="number"
          inputMode="numeric"
          min={TAG_DURATION_MIN_DAYS}
          max={TAG_DURATION_MAX_DAYS}
          step={1}
          value={daysText}
          onChange={(event) => setDaysText(event.target.value)}
          error={days === null ? ERROR_MESSAGES.invalid_tag_days : undefined}
          hint="De 1 a 365 dias; vale para as tags que você ativar agora."
        />
        {problem && (
          <p role="alert" className="rounded-xl bg-rose-50 px-3 py-2 text-sm font-medium text-rose-800 ring-1 ring-rose-200">
            {problem}
          </p>
        )}
        <ul className="flex flex-col gap-2" aria-label="Tags da semana">
          {TAG_KINDS.map((kind) => {
            const tag = active.get(kind);
            const look = TAG_LOOK[kind];
            const busy = toggle.isPending && toggle.variables?.kind === kind;
            return (
              <li key={kind} className={cn('flex items-center gap-3 rounded-2xl p-3 ring-1', tag ? look.chip : 'bg-white ring-slate-200')}>
                <span aria-hidden="true" className={cn('flex size-10 shrink-0 items-center justify-center rounded-xl', look.iconBox)}>
                  <look.icon className="size-5" />
                </span>
                <div className="min-w-0 flex-1">
                  <p id={`tag-${kind}-label`} className="font-semibold text-slate-900">
                    {TAG_NAMES[kind]}
                  </p>
                  <p className="text-sm text-slate-700">
                    {tag ? `Ativa até ${formatDate(tag.expiresAt)} · ${daysLeftText(tag.expiresAt)}` : 'Inativa'}
                  </p>
                </div>
                <button
                  type="button"
                  role="switch"
                  aria-checked={Boolean(tag)}
                  aria-labelledby={`tag-${kind}-label`}
                  disabled={toggle.isPending || (!tag && days === null)}
                  onClick={() => onToggle(kind)}
                  className={cn(
                    'relative inline-flex h-8 w-14 shrink-0 items-center rounded-full transition-colors',
                    'focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500',
                    'focus-visible:ring-offset-2 disabled:cursor-not-allowed disabled:opacity-60',
                    tag ? 'bg-indigo-600' : 'bg-slate-300',
                    busy && 'animate-pulse',
                  )}
                >
                  <span
                    className={cn(
                      'inline-block size-6 rounded-full bg-white shadow transition-transform',
                      tag ? 'translate-x-7' : 'translate-x-1',
                    )}
                  />
                </button>
              </li>
            );
          })}
        </ul>
      </div>
    </Modal>
  );
}
