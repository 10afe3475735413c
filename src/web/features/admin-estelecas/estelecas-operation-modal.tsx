import { useState, type FormEvent } from 'react';
import { ADMIN_OPERATION_TYPES, typesThat, type AdminOperationType } from '../../../shared/ledger-types.ts';
import { formatEstelecas, formatNumber } from '../../lib/format.ts';
import { errorMessage, toast, toastFailure } from '../../lib/toast.ts';
import { AwardBudgetNote } from '../../ui/award-budget-note.tsx';
import { FormAlert } from '../../ui/form-alert.tsx';
import { FormModal } from '../../ui/form-modal.tsx';
import { OperationTypeChoice } from '../../ui/operation-type-choice.tsx';
import { SelectedStudents } from '../../ui/selected-students.tsx';
import { StudentPicker, type PickedStudents } from '../../ui/student-picker.tsx';
import { AmountField, DescriptionField } from '../../ui/text-field.tsx';
import { useAdminOperation, validateAdminOperation } from '../../lib/admin-operation.ts';

export type EstelecasMode = 'add' | 'remove';

const COPY: Record<EstelecasMode, { title: string; description: string; submit: string; failure: string; types: AdminOperationType[] }> = {
  add: {
    title: 'Adicionar Estelecas',
    description: 'Escolha o estudante, a quantidade e o motivo.',
    submit: 'Adicionar',
    failure: 'Erro ao adicionar Estelecas',
    types: typesThat(ADMIN_OPERATION_TYPES, 'raises'),
  },
  remove: {
    title: 'Remover Estelecas',
    description: 'A quantidade não pode passar do saldo do estudante.',
    submit: 'Remover',
    failure: 'Erro ao remover Estelecas',
    types: typesThat(ADMIN_OPERATION_TYPES, 'lowers'),
  },
};

/** A removal lists only the students holding Estelecas. */
const REMOVABLE = { withEstelecas: true };

export function EstelecasOperationModal({ mode, onClose }: { mode: EstelecasMode; onClose: () => void }) {
  const copy = COPY[mode];
  const [type, setType] = useState<AdminOperationType>(copy.types[0]!);
  const [selected, setSelected] = useState<PickedStudents>(new Map());
  const [quantity, setQuantity] = useState('');
  const [description, setDescription] = useState('');
  const [error, setError] = useState<string>();
  const student = [...selected.values()][0];

  const operation = useAdminOperation('estelecas', {
    onSuccess: (result) => {
      toast.success(result.message);
      onClose();
    },
    onError: (failure) => {
      setError(errorMessage(failure, copy.failure));
      toastFailure(copy.failure, failure);
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const checked = validateAdminOperation('estelecas', { type, amount: quantity, description }, student ? [student] : []);
    if (!checked.ok) return setError(checked.message);
    setError(undefined);
    operation.submit({ kind: 'single', studentUuid: student!.id, input: checked.input });
  };

  const formId = `estelecas-${mode}-form`;
  return (
    <FormModal
      onClose={onClose}
      title={copy.title}
      description={copy.description}
      size="lg"
      formId={formId}
      pending={operation.isPending}
      dirty={selected.size > 0 || quantity !== '' || description !== ''}
      submitLabel={copy.submit}
      submitVariant={mode === 'add' ? 'primary' : 'danger'}
    >
      <form id={formId} onSubmit={submit} noValidate className="flex flex-col gap-4">
        <div>
          <p className="mb-1.5 text-sm font-medium text-slate-800">Estudante</p>
          <StudentPicker
            selected={selected}
            onChange={(next) => {
              setSelected(next);
              setError(undefined);
            }}
            mode="single"
            label="Estudante"
            balanceOf={(candidate) => formatNumber(candidate.estelecas)}
            balanceUnit="Estelecas"
            {...(mode === 'remove' ? { filter: REMOVABLE } : {})}
            listClassName="max-h-56"
          />
        </div>
        <OperationTypeChoice types={copy.types} value={type} onChange={setType} name={`estelecas-${mode}-type`} />
        <AmountField
          label="Quantidade"
          max={mode === 'remove' && student ? student.estelecas : undefined}
          value={quantity}
          onValueChange={setQuantity}
          hint={mode === 'remove' && student ? `Saldo de ${student.name}: ${formatEstelecas(student.estelecas)}` : 'Mínimo 1'}
        />
        <DescriptionField value={description} onValueChange={setDescription} />
        {mode === 'add' && <AwardBudgetNote currency="estelecas" />}
        <FormAlert message={error} />
        {student && (
          <div className="flex flex-col gap-1.5">
            <p className="text-sm font-medium text-slate-800">{mode === 'add' ? 'Para' : 'De'}:</p>
            <SelectedStudents students={[student]} onRemove={() => setSelected(new Map())} label="Estudante selecionado" />
          </div>
        )}
      </form>
    </FormModal>
  );
}
