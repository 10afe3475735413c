import { useRef, useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Users, X } from 'lucide-react';
import { MAX_OPERATION_AMOUNT } from '../../../shared/constants.ts';
import { offeredTurmas, useSchoolSettings } from '../../lib/school-settings.ts';
import {
  ADMIN_OPERATION_TYPES,
  isCredit,
  OPERATION_TYPE_LABELS,
  typesThat,
  type AdminOperationType,
} from '../../../shared/ledger-types.ts';
import { routes } from '../../../shared/contract/routes.ts';
import { formatMeritus, formatNumber } from '../../lib/format.ts';
import { errorMessage, toast, toastFailure } from '../../lib/toast.ts';
import { Button } from '../../ui/button.tsx';
import { FormAlert } from '../../ui/form-alert.tsx';
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx';
import { SelectField } from '../../ui/select-field.tsx';
import { StudentPicker, type PickedStudents } from '../../ui/student-picker.tsx';
import { readOf } from '../../lib/query-keys.ts';
import { turmaStudents } from '../../lib/student-search.ts';
import { AmountField, DescriptionField } from '../../ui/text-field.tsx';
import {
  removalRefusal,
  shortInRefusal,
  useAdminOperation,
  validateAdminOperation,
  type AdminOperationRequest,
} from '../../lib/admin-operation.ts';
import { AwardBudgetNote } from '../../ui/award-budget-note.tsx';
import { OperationTypeChoice } from '../../ui/operation-type-choice.tsx';
import { SelectedStudents } from '../../ui/selected-students.tsx';
import { ReasonPresetChips } from './reason-preset-chips.tsx';

/** The operations that add, then the ones that remove. */
const TYPES = [...typesThat(ADMIN_OPERATION_TYPES, 'raises'), ...typesThat(ADMIN_OPERATION_TYPES, 'lowers')];

type Pending = Extract<AdminOperationRequest, { kind: 'bulk' }>;

export function MeritusForm() {
  const maxAmount = useSchoolSettings().data?.rules.maxOperationAmount ?? MAX_OPERATION_AMOUNT;
  const turmas = useQuery(readOf(routes.settings.turmas)).data ?? [];
  const [type, setType] = useState<AdminOperationType>('admin_add');
  const [selected, setSelected] = useState<PickedStudents>(new Map());
  const [turma, setTurma] = useState('');
  const [loadingTurma, setLoadingTurma] = useState(false);
  /** The turma asked for last: an answer for one chosen before it is dropped. */
  const turmaAsked = useRef('');
  const [amount, setAmount] = useState('');
  const [description, setDescription] = useState('');
  const [error, setError] = useState<string>();
  const [confirming, setConfirming] = useState<Pending | null>(null);

  const chosen = [...selected.values()];
  const credit = isCredit(type);

  const reset = () => {
    setSelected(new Map());
    chooseNoTurma();
    setAmount('');
    setDescription('');
    setError(undefined);
  };

  const operation = useAdminOperation('meritus', {
    onSuccess: (result) => {
      toast.success(result.message);
      setConfirming(null);
      reset();
    },
    onError: (failure, request) => {
      setConfirming(null);
      let message = errorMessage(failure, 'Erro ao realizar operação');
      if (failure.code === 'remove_exceeds_balance' && request.kind === 'bulk') {
        message = removalRefusal('meritus', shortInRefusal(failure), request.studentUuids.length);
      }
      setError(message);
      toastFailure('Erro ao realizar operação', failure);
    },
  });

  const chooseNoTurma = () => {
    turmaAsked.current = '';
    setTurma('');
    setLoadingTurma(false);
  };

  /** A whole turma: its students, read from the server's search page by page, become the selection. */
  const chooseTurma = (grade: string) => {
    turmaAsked.current = grade;
    setTurma(grade);
    setError(undefined);
    if (!grade) return setLoadingTurma(false);
    setLoadingTurma(true);
    turmaStudents(grade).then(
      (members) => {
        if (turmaAsked.current !== grade) return;
        setSelected(new Map(members.map((student) => [student.id, student])));
        setLoadingTurma(false);
      },
      (failure: unknown) => {
        if (turmaAsked.current !== grade) return;
        chooseNoTurma();
        toastFailure('Erro ao carregar estudantes', failure);
      },
    );
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const checked = validateAdminOperation('meritus', { type, amount, description }, chosen);
    if (!checked.ok) return setError(checked.message);
    setError(undefined);
    const { input } = checked;
    if (chosen.length === 1) operation.submit({ kind: 'single', studentUuid: chosen[0]!.id, input });
    else setConfirming({ kind: 'bulk', studentUuids: chosen.map((student) => student.id), input });
  };

  return (
    <form onSubmit={submit} noValidate className="flex flex-col gap-5">
      <OperationTypeChoice types={TYPES} value={type} onChange={setType} name="meritus-operation-type" />

      <div className="flex flex-col gap-3">
        <div className="flex flex-col gap-3 sm:flex-row sm:items-end">
          <SelectField
            label="Turma inteira"
            placeholder="Escolher estudantes um a um"
            options={offeredTurmas(turmas, (option) => option.name === turma).map((option) => ({
              value: option.name,
              label: `${option.name} (${option.students})`,
              disabled: option.students === 0,
            }))}
            value={turma}
            onChange={(event) => chooseTurma(event.target.value)}
            containerClassName="flex-1"
          />
          {selected.size > 0 && (
            <Button
              variant="ghost"
              onClick={() => {
                setSelected(new Map());
                chooseNoTurma();
              }}
              icon={<X aria-hidden="true" className="size-4" />}
            >
              Limpar seleção
            </Button>
          )}
        </div>
        <div>
          <p className="mb-1.5 text-sm font-medium text-slate-800" id="meritus-students-label">
            Estudantes
          </p>
          <StudentPicker
            selected={selected}
            onChange={(next) => {
              setSelected(next);
              chooseNoTurma();
              setError(undefined);
            }}
            mode="multiple"
            label="Estudantes"
            balanceOf={(student) => formatMeritus(student.meritus)}
          />
        </div>
        <p aria-live="polite" className="flex items-center gap-2 text-sm text-slate-700">
          <Users aria-hidden="true" className="size-4 text-slate-500" />
          {loadingTurma
            ? `Carregando ${turma}…`
            : chosen.length === 0
              ? 'Nenhum estudante selecionado'
              : chosen.length === 1
                ? `Selecionado: ${chosen[0]!.name} (${formatMeritus(chosen[0]!.meritus)})`
                : `${formatNumber(chosen.length)} estudantes selecionados${turma ? ` — ${turma}` : ''}`}
        </p>
      </div>

      <AmountField label="Valor (M$)" max={maxAmount} value={amount} onValueChange={setAmount} placeholder="Ex.: 50" />
      {credit && <AwardBudgetNote currency="meritus" />}
      <div className="flex flex-col gap-2">
        <DescriptionField value={description} onValueChange={setDescription} />
        <ReasonPresetChips description={description} onPick={setDescription} />
      </div>

      <FormAlert message={error} />

      {chosen.length > 0 && (
        <div className="flex flex-col gap-1.5">
          <p className="text-sm font-medium text-slate-800">
            {credit ? 'Para' : 'De'} {chosen.length === 1 ? '1 estudante' : `${formatNumber(chosen.length)} estudantes`}:
          </p>
          <SelectedStudents
            students={chosen}
            onRemove={(id) => {
              const next = new Map(selected);
              next.delete(id);
              setSelected(next);
              chooseNoTurma();
              setError(undefined);
            }}
          />
        </div>
      )}

      <Button
        type="submit"
        size="lg"
        variant={credit ? 'primary' : 'danger'}
        loading={operation.isPending}
        disabled={loadingTurma}
        fullWidth
      >
        {credit ? 'Adicionar Méritus' : 'Remover Méritus'}
        {chosen.length > 1 ? ` (${formatNumber(chosen.length)} estudantes)` : ''}
      </Button>

      <ConfirmDialog
        open={confirming !== null}
        title={credit ? 'Conceder a vários estudantes?' : 'Descontar de vários estudantes?'}
        tone={credit ? 'primary' : 'danger'}
        message={
          confirming && (
            <>
              <p>
                {OPERATION_TYPE_LABELS[confirming.input.type]} de <strong>{formatMeritus(confirming.input.amount)}</strong> para{' '}
                <strong>{formatNumber(confirming.studentUuids.length)} estudantes</strong>
                {turma ? ` (${turma})` : ''}: “{confirming.input.description}”.
              </p>
              <div className="mt-3">
                <SelectedStudents
                  students={chosen.filter((student) => confirming.studentUuids.includes(student.id))}
                  label="Estudantes da operação"
                />
              </div>
              <p className="mt-2 text-slate-600">Tudo ou nada: se um saldo não permitir, nenhum estudante é alterado.</p>
            </>
          )
        }
        confirmLabel="Confirmar"
        pending={operation.isPending}
        onConfirm={() => confirming && operation.submit(confirming)}
        onCancel={() => setConfirming(null)}
      />
    </form>
  );
}
