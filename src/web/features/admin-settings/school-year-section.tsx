import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { CalendarRange, Pencil, Plus } from 'lucide-react';
import { isRefusal } from '../../lib/api.ts';
import { paths } from '../../lib/paths.ts';
import { issueFields } from '../../../shared/validation.ts';
import {
  calendarYearInput,
  PERIODS_OF_KIND,
  periodName,
  schoolYearInput,
  type PeriodKind,
  type SchoolYear,
  type SchoolYearInput,
} from '../../../shared/school-year.ts';
import { Badge } from '../../ui/badge.tsx';
import { Button } from '../../ui/button.tsx';
import { Card } from '../../ui/card.tsx';
import { SelectField } from '../../ui/select-field.tsx';
import { Spinner } from '../../ui/spinner.tsx';
import { TextField } from '../../ui/text-field.tsx';
import { useSaveSchoolYear, useSchoolYears } from './school-year-queries.ts';

const KIND_OPTIONS = [
  { value: 'bimestre', label: 'Bimestres (4)' },
  { value: 'trimestre', label: 'Trimestres (3)' },
];

/** 'YYYY-MM-DD' as the school reads it: 01/02/2026 (a calendar day, no time zone to apply). */
const dayText = (day: string) => `${day.slice(8, 10)}/${day.slice(5, 7)}/${day.slice(0, 4)}`;

type Draft = SchoolYearInput & { id?: string };

/** The year's form: its name, days, kind and each period's days; the shared schema says what is wrong, beside each field. */
function YearForm({ initial, onDone }: { initial: Draft; onDone: () => void }) {
  const [draft, setDraft] = useState<Draft>(initial);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const save = useSaveSchoolYear();
  const set = (change: Partial<Draft>) => {
    setDraft((current) => ({ ...current, ...change }));
    save.reset();
  };
  const setKind = (kind: PeriodKind) => {
    const count = PERIODS_OF_KIND[kind];
    const periods = Array.from({ length: count }, (_, index) => draft.periods[index] ?? { startDate: '', endDate: '' });
    set({ periodKind: kind, periods });
  };
  const setPeriod = (index: number, change: Partial<{ startDate: string; endDate: string }>) =>
    set({ periods: draft.periods.map((period, at) => (at === index ? { ...period, ...change } : period)) });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = schoolYearInput.safeParse(draft);
    setErrors(parsed.success ? {} : issueFields(parsed.error.issues));
    if (parsed.success) save.mutate({ ...parsed.data, id: draft.id }, { onSuccess: onDone });
  };
  const serverFields = isRefusal(save.error) ? (save.error.fields ?? {}) : {};
  const fieldError = (name: string) => errors[name] ?? serverFields[name];
  const refusal = isRefusal(save.error) && !save.error.fields ? save.error.message : undefined;

  return (
    <form
      onSubmit={submit}
      noValidate
      aria-label={draft.id ? `Editar ${initial.name}` : 'Novo ano letivo'}
      className="grid gap-4 md:grid-cols-2"
    >
      <TextField
        label="Nome"
        value={draft.name}
        onChange={(event) => set({ name: event.target.value })}
        error={fieldError('name')}
        maxLength={60}
      />
      <SelectField
        label="Divisão do ano"
        options={KIND_OPTIONS}
        value={draft.periodKind}
        onChange={(event) => setKind(event.target.value as PeriodKind)}
        error={fieldError('periodKind') ?? fieldError('periods')}
      />
      <TextField
        label="Início do ano letivo"
        type="date"
        value={draft.startDate}
        onChange={(event) => set({ startDate: event.target.value })}
        error={fieldError('startDate')}
      />
      <TextField
        label="Fim do ano letivo"
        type="date"
        value={draft.endDate}
        onChange={(event) => set({ endDate: event.target.value })}
        error={fieldError('endDate')}
      />
      <fieldset className="grid gap-3 md:col-span-2">
        <legend className="mb-2 text-sm font-semibold text-slate-900">Períodos</legend>
        {draft.periods.map((period, index) => (
          <div key={index} className="grid gap-3 sm:grid-cols-2">
            <TextField
              label={`Início do ${periodName(draft.periodKind, index + 1)}`}
              type="date"
              value={period.startDate}
              onChange={(event) => setPeriod(index, { startDate: event.target.value })}
              error={fieldError(`periods.${index}.startDate`)}
            />
            <TextField
              label={`Fim do ${periodName(draft.periodKind, index + 1)}`}
              type="date"
              value={period.endDate}
              onChange={(event) => setPeriod(index, { endDate: event.target.value })}
              error={fieldError(`periods.${index}.endDate`)}
            />
          </div>
        ))}
      </fieldset>
      {refusal && (
        <p role="alert" className="text-sm font-medium text-red-700 md:col-span-2">
          {refusal}
        </p>
      )}
      <div className="flex flex-wrap gap-2 md:col-span-2">
        <Button type="submit" disabled={save.isPending}>
          Salvar ano letivo
        </Button>
        <Button variant="ghost" onClick={onDone}>
          Cancelar
        </Button>
      </div>
    </form>
  );
}

const draftOf = (year: SchoolYear): Draft => ({
  id: year.id,
  name: year.name,
  startDate: year.startDate,
  endDate: year.endDate,
  periodKind: year.periodKind,
  periods: year.periods.map(({ startDate, endDate }) => ({ startDate, endDate })),
});

/** Configurações › Ano letivo: the school's years and their periods (issue 38). */
export function SchoolYearSection() {
  const years = useSchoolYears();
  const [editing, setEditing] = useState<Draft | null>(null);
  const list = years.data?.years ?? [];
  const nextYear = () => {
    const last = list.at(-1);
    return calendarYearInput(last ? Number(last.endDate.slice(0, 4)) + 1 : new Date().getFullYear());
  };

  return (
    <Card title="Ano letivo">
      <p className="mb-3 text-sm text-slate-600">
        Cada operação, pedido e tag pertence ao ano letivo e ao período da sua data. Os anos não podem se sobrepor.
      </p>
      {years.isPending ? (
        <Spinner className="size-6" />
      ) : (
        <ul className="divide-y divide-slate-100" aria-label="Anos letivos">
          {list.length === 0 && <li className="py-2 text-sm text-slate-600">Nenhum ano letivo cadastrado.</li>}
          {list.map((year) => (
            <li key={year.id} className="py-3">
              <div className="flex flex-wrap items-center gap-2">
                <CalendarRange aria-hidden="true" className="size-4 text-slate-500" />
                <span className="font-semibold text-slate-900">{year.name}</span>
                <span className="text-sm text-slate-600">
                  {dayText(year.startDate)} a {dayText(year.endDate)}
                </span>
                {year.current && <Badge tone="emerald">Atual</Badge>}
                {year.closedAt && <Badge tone="slate">Encerrado</Badge>}
                {!year.closedAt && (
                  <Button
                    variant="ghost"
                    size="sm"
                    className="ml-auto"
                    aria-label={`Editar ${year.name}`}
                    icon={<Pencil aria-hidden="true" className="size-4" />}
                    onClick={() => setEditing(draftOf(year))}
                  >
                    Editar
                  </Button>
                )}
              </div>
              <ul className="mt-1 flex flex-wrap gap-x-4 gap-y-1 text-sm text-slate-600" aria-label={`Períodos de ${year.name}`}>
                {year.periods.map((period) => (
                  <li key={period.id}>
                    {period.name}: {dayText(period.startDate)} a {dayText(period.endDate)}
                  </li>
                ))}
              </ul>
            </li>
          ))}
        </ul>
      )}
      <div className="mt-4 border-t border-slate-100 pt-4">
        {!editing && list.some((year) => !year.closedAt) && (
          <p className="mb-3 text-sm text-slate-600">
            No fim do ano, a{' '}
            <Link to={paths.admin.yearRollover} className="font-semibold text-indigo-700 underline hover:text-indigo-900">
              Virada do ano
            </Link>{' '}
            leva os alunos às próximas turmas, forma o último ano e encerra ou mantém os saldos.
          </p>
        )}
        {editing ? (
          <YearForm key={editing.id ?? 'novo'} initial={editing} onDone={() => setEditing(null)} />
        ) : (
          <Button icon={<Plus aria-hidden="true" className="size-4" />} onClick={() => setEditing(nextYear())} disabled={years.isPending}>
            Novo ano letivo
          </Button>
        )}
      </div>
    </Card>
  );
}
