import { Coins, Info, Star } from 'lucide-react';
import type { SelfStudent } from '../../shared/auth.ts';
import type { SchoolRules } from '../../shared/settings.ts';
import { formatMeritus, formatNumber, formatReais } from '../../shared/format.ts';
import { goalPercent } from '../../shared/student-figures.ts';
import { ProgressBar } from '../ui/progress-bar.tsx';

/** The student's balances in the sidebar: Méritus against the school's goal, Estelecas against its bar scale, and the exchange note. */
export function BalanceCards({ student, rules }: { student: SelfStudent; rules: Pick<SchoolRules, 'meritusGoal' | 'estelecasBarScale'> }) {
  const { meritusGoal, estelecasBarScale } = rules;
  // The dashboard's figure: rounded down, so 100% only once the goal is reached.
  const reached = goalPercent(student.meritus, meritusGoal);
  return (
    <div className="flex flex-col gap-2.5">
      <section aria-label="Seus Méritus" className="rounded-2xl bg-gradient-to-br from-amber-50 to-orange-50 p-3.5 ring-1 ring-amber-200">
        <div className="flex items-center gap-2 text-sm font-semibold text-amber-900">
          <Coins aria-hidden="true" className="size-4" />
          Méritus
        </div>
        <p className="mt-1 text-2xl font-extrabold tracking-tight text-slate-900">{formatMeritus(student.meritus)}</p>
        <div className="mt-2 flex items-center justify-between text-xs font-medium text-amber-900">
          <span>Meta: {formatMeritus(meritusGoal)}</span>
          <span>{reached}%</span>
        </div>
        <ProgressBar
          value={student.meritus}
          max={meritusGoal}
          label="Progresso da meta de Méritus"
          tone="amber"
          className="mt-1.5"
          trackClassName="bg-amber-100"
        />
      </section>
      <section
        aria-label="Suas Estelecas"
        className="rounded-2xl bg-gradient-to-br from-emerald-50 to-teal-50 p-3.5 ring-1 ring-emerald-200"
      >
        <div className="flex items-center justify-between">
          <span className="flex items-center gap-2 text-sm font-semibold text-emerald-900">
            <Star aria-hidden="true" className="size-4" />
            Estelecas
          </span>
          <span className="text-lg font-extrabold text-slate-900">{formatNumber(student.estelecas)}</span>
        </div>
        <ProgressBar
          value={student.estelecas}
          max={estelecasBarScale}
          label={`Estelecas (escala de ${formatNumber(estelecasBarScale)})`}
          tone="emerald"
          className="mt-2"
          trackClassName="bg-emerald-100"
        />
        <p className="mt-1.5 text-xs text-emerald-900">Pontos de excelência</p>
      </section>
      <p className="flex items-center gap-2 rounded-xl bg-indigo-50 px-3 py-2 text-xs font-medium text-indigo-900 ring-1 ring-indigo-100">
        <Info aria-hidden="true" className="size-4 shrink-0" />1 Méritus = {formatReais(1)}
      </p>
    </div>
  );
}
