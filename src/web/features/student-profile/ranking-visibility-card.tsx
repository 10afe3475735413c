import { useId } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { EyeOff } from 'lucide-react';
import { toast } from 'react-hot-toast';
import type { SelfStudent } from '../../../shared/auth.ts';
import { routes } from '../../../shared/contract/routes.ts';
import { RANKING_PRIVACY_TEXTS } from '../../../shared/ranking-privacy.ts';
import { call } from '../../lib/api.ts';
import { cn } from '../../lib/cn.ts';
import { invalidateReads } from '../../lib/query-keys.ts';
import { useSchoolSettings } from '../../lib/school-settings.ts';
import { toastError } from '../../lib/toast.ts';
import { Card } from '../../ui/card.tsx';

/**
 * 'Não aparecer no ranking' (decision 029): the student's own choice, offered while the school allows it; a student who
 * chose it before the school stopped allowing it can still turn it off.
 */
export function RankingVisibilityCard({ student }: { student: SelfStudent }) {
  const id = useId();
  const client = useQueryClient();
  const allowed = useSchoolSettings().data?.rules.rankingHideAllowed ?? true;
  const change = useMutation({
    mutationFn: (hidden: boolean) => call(routes.students.rankingVisibility, { body: { hidden } }),
    onSuccess: (result) => {
      toast.success(result.message);
      invalidateReads(client, [routes.auth.me, routes.students.summary, routes.students.ranking, routes.tags.active]);
    },
    onError: (error) => toastError(error),
  });
  const hidden = change.isPending && change.variables !== undefined ? change.variables : student.rankingHidden;
  const inEffect = hidden && allowed;
  return (
    <Card title="Privacidade">
      <div className="flex items-start gap-3">
        <span aria-hidden="true" className="flex size-10 shrink-0 items-center justify-center rounded-xl bg-slate-100 text-slate-600">
          <EyeOff className="size-5" />
        </span>
        <div className="min-w-0 flex-1">
          <p id={`${id}-label`} className="text-sm font-semibold text-slate-900">
            {RANKING_PRIVACY_TEXTS.hideLabel}
          </p>
          <p id={`${id}-hint`} className="text-sm text-slate-600">
            {allowed ? RANKING_PRIVACY_TEXTS.hideHint : RANKING_PRIVACY_TEXTS.hideNotAllowed}
          </p>
          <p className="mt-1 text-xs font-semibold text-slate-700" aria-live="polite">
            {inEffect ? RANKING_PRIVACY_TEXTS.hidden : RANKING_PRIVACY_TEXTS.shown}
          </p>
        </div>
        <button
          type="button"
          role="switch"
          aria-checked={hidden}
          aria-labelledby={`${id}-label`}
          aria-describedby={`${id}-hint`}
          disabled={change.isPending || (!allowed && !hidden)}
          onClick={() => change.mutate(!hidden)}
          className={cn(
            'relative inline-flex h-8 w-14 shrink-0 items-center rounded-full transition-colors',
            'focus-visible:ring-2 focus-visible:ring-indigo-500 focus-visible:ring-offset-2 focus-visible:outline-none',
            'disabled:cursor-not-allowed disabled:opacity-60',
            hidden ? 'bg-indigo-600' : 'bg-slate-400',
          )}
        >
          <span
            className={cn(
              'inline-block size-6 rounded-full bg-white shadow transition-transform',
              hidden ? 'translate-x-7' : 'translate-x-1',
            )}
          />
        </button>
      </div>
    </Card>
  );
}
