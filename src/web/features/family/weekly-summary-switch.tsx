import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Mail } from 'lucide-react';
import { mail } from '../../../shared/contract/mail.ts';
import type { FamilyMailPreferences } from '../../../shared/mail.ts';
import { MAIL_TEXTS } from '../../../shared/mail-texts.ts';
import { call, type ApiError } from '../../lib/api.ts';
import { readOf } from '../../lib/query-keys.ts';
import { toast, toastError } from '../../lib/toast.ts';
import { Card } from '../../ui/card.tsx';
import { Skeleton } from '../../ui/skeleton.tsx';

/**
 * 'Resumo semanal por email' in the family area (decision 038): on by default, turned off here or by the email's own
 * link, and on again only here. Without SMTP on this server, the card says email is off.
 */
export function WeeklySummarySwitch() {
  const client = useQueryClient();
  const read = readOf(mail.familyPreferences);
  const preferences = useQuery(read);
  // The box shows the choice at once, in the click's own render, until the server has answered.
  const [choice, setChoice] = useState<boolean | null>(null);
  const change = useMutation<FamilyMailPreferences, ApiError, boolean>({
    mutationFn: (weeklySummary) => call(mail.setFamilyPreferences, { body: { weeklySummary } }),
    onSuccess: (result) => {
      client.setQueryData(read.queryKey, result);
      toast.success(result.weeklySummary ? MAIL_TEXTS.summaryOn : MAIL_TEXTS.summaryOff);
    },
    onError: (error) => toastError(error),
    onSettled: () => setChoice(null),
  });
  return (
    <Card title="Resumo semanal por email">
      {preferences.isPending ? (
        <Skeleton className="h-12 rounded-xl" />
      ) : !preferences.data?.enabled ? (
        <p className="flex items-start gap-2 text-sm text-slate-600" data-testid="mail-disabled">
          <Mail aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
          {MAIL_TEXTS.disabled}
        </p>
      ) : (
        <label className="flex min-h-11 cursor-pointer items-start gap-3 rounded-xl bg-slate-50 p-3 text-sm ring-1 ring-slate-200">
          <input
            type="checkbox"
            className="mt-0.5 size-5 shrink-0 accent-indigo-600"
            checked={choice ?? preferences.data.weeklySummary}
            disabled={change.isPending}
            onChange={(event) => {
              setChoice(event.target.checked);
              change.mutate(event.target.checked);
            }}
          />
          <span>
            <span className="font-medium text-slate-900">Receber toda segunda-feira o resumo da semana de cada filho</span>
            <span className="mt-0.5 block text-slate-600">
              Saldos, o que ganhou e os motivos. Cada email traz um link para desligar o resumo com um clique.
            </span>
          </span>
        </label>
      )}
    </Card>
  );
}
