import { useId, useState } from 'react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { IdCard } from 'lucide-react';
import { routes } from '../../../shared/contract/routes.ts';
import { ACCESS_CARD_TEXTS, ACCESS_CARDS_MAX, type AccessCardsInput } from '../../../shared/student-access.ts';
import { ERROR_MESSAGES } from '../../../shared/errors.ts';
import { GUARDIAN_LETTER_TEXTS } from '../../../shared/families.ts';
import { countOf } from '../../lib/format.ts';
import type { ApiError } from '../../lib/api.ts';
import { downloadAnswer } from '../../lib/file-download.ts';
import { readOf } from '../../lib/query-keys.ts';
import { useSession } from '../../lib/session.ts';
import { toast, toastError } from '../../lib/toast.ts';
import { Button } from '../../ui/button.tsx';
import { ChoiceGroup } from '../../ui/choice-group.tsx';
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx';
import { FormAlert } from '../../ui/form-alert.tsx';
import { Modal } from '../../ui/modal.tsx';
import { SelectField } from '../../ui/select-field.tsx';
import { StudentPicker, type PickedStudents } from '../../ui/student-picker.tsx';

/** Who gets cards: a whole turma or students picked one by one. */
type Scope = 'turma' | 'students';
const SCOPES = [
  { value: 'turma', label: 'Turma inteira' },
  { value: 'students', label: 'Alunos escolhidos' },
] as const satisfies readonly { value: Scope; label: string }[];

/** What the printout is for, with the count the confirmation states. */
type Request = { input: AccessCardsInput; count: number };

/**
 * The two printouts made for a turma or chosen students: the access cards (new passwords) and the guardians' letters
 * (new codes, decision 037). Each is a POST whose PDF is the only place its secrets appear.
 */
export type Printout = 'cards' | 'letters';
const PRINTOUTS = {
  cards: {
    title: 'Cartões de acesso',
    description: 'Um PDF para imprimir e recortar: nome, matrícula, uma nova senha provisória e o endereço do portal com QR code.',
    warning: 'Gerar os cartões redefine as senhas desses alunos: as senhas atuais deixam de funcionar.',
    pickerLabel: 'Alunos dos cartões',
    confirmTitle: 'Gerar cartões de acesso',
    confirm: ACCESS_CARD_TEXTS.confirm,
    after: 'Imprima o PDF e recorte os cartões para entregar a cada aluno.',
    confirmLabel: 'Redefinir e gerar PDF',
    tone: 'danger',
    route: routes.adminStudents.accessCards,
    fileName: 'cartoes-de-acesso.pdf',
    done: ACCESS_CARD_TEXTS.done,
  },
  letters: {
    title: 'Cartas para responsáveis',
    description: 'Um PDF com uma página por aluno: o código de acesso dos responsáveis, o QR code da página de cadastro e os passos.',
    warning: 'Gerar as cartas cria um código novo para cada aluno: os códigos ainda não usados deixam de valer.',
    pickerLabel: 'Alunos das cartas',
    confirmTitle: 'Gerar cartas para responsáveis',
    confirm: GUARDIAN_LETTER_TEXTS.confirm,
    after: 'Imprima o PDF e entregue cada carta à família do aluno.',
    confirmLabel: 'Gerar PDF',
    tone: 'primary',
    route: routes.families.letters,
    fileName: 'cartas-responsaveis.pdf',
    done: GUARDIAN_LETTER_TEXTS.done,
  },
} as const;

function usePrintout(printout: Printout) {
  return useMutation<string, ApiError, Request>({
    mutationFn: ({ input }) => downloadAnswer(PRINTOUTS[printout].route, input, PRINTOUTS[printout].fileName),
  });
}

/**
 * Asks before anything happens, then resets the passwords and downloads the cards' PDF (the only place the new
 * passwords appear). `onDone` after the download.
 */
function ConfirmCards({
  request,
  onCancel,
  onDone,
  printout = 'cards',
}: {
  request: Request;
  onCancel: () => void;
  onDone: () => void;
  printout?: Printout;
}) {
  const cards = usePrintout(printout);
  const texts = PRINTOUTS[printout];
  return (
    <ConfirmDialog
      open
      title={texts.confirmTitle}
      message={
        <div className="flex flex-col gap-2">
          <p>{texts.confirm(request.count)}</p>
          <p>{texts.after}</p>
        </div>
      }
      confirmLabel={texts.confirmLabel}
      tone={texts.tone}
      pending={cards.isPending}
      onCancel={onCancel}
      onConfirm={() =>
        cards.mutate(request, {
          onSuccess: () => {
            toast.success(texts.done(request.count));
            onDone();
          },
          onError: (error) => toastError(error),
        })
      }
    />
  );
}

/**
 * 'Cartões de acesso' (each student a new temporary password, the portal's address and its QR code, to print and cut
 * out) or 'Cartas para responsáveis' (each a new code for guardians), for a turma's students or students picked. A
 * teacher sees only their turmas (the server refuses the others).
 */
export function AccessCardsDialog({ onClose, printout = 'cards' }: { onClose: () => void; printout?: Printout }) {
  const texts = PRINTOUTS[printout];
  const { user } = useSession();
  const turmasQuery = useQuery(readOf(routes.settings.turmas));
  const taught = user?.role === 'teacher' ? new Set(user.admin.turmas.map((turma) => turma.id)) : null;
  const turmas = (turmasQuery.data ?? []).filter((turma) => !turma.retired && (taught === null || taught.has(turma.id)));
  const [scope, setScope] = useState<Scope>('turma');
  const [turmaId, setTurmaId] = useState('');
  const [picked, setPicked] = useState<PickedStudents>(new Map());
  const [error, setError] = useState<string>();
  const [confirming, setConfirming] = useState<Request | null>(null);
  const formId = useId();
  const turma = turmas.find((candidate) => candidate.id === turmaId);

  const proceed = () => {
    if (scope === 'turma') {
      if (!turma) return setError('Escolha a turma');
      if (turma.students === 0) return setError(ERROR_MESSAGES.access_cards_none);
      if (turma.students > ACCESS_CARDS_MAX) return setError(ERROR_MESSAGES.access_cards_too_many);
      setConfirming({ input: { turmaId: turma.id }, count: turma.students });
    } else {
      if (picked.size === 0) return setError('Escolha pelo menos um aluno');
      if (picked.size > ACCESS_CARDS_MAX) return setError(ERROR_MESSAGES.access_cards_too_many);
      setConfirming({ input: { studentIds: [...picked.keys()] }, count: picked.size });
    }
    setError(undefined);
  };

  if (confirming) return <ConfirmCards request={confirming} printout={printout} onCancel={() => setConfirming(null)} onDone={onClose} />;

  return (
    <Modal
      open
      onClose={onClose}
      size="lg"
      title={texts.title}
      description={texts.description}
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            Cancelar
          </Button>
          <Button type="submit" form={formId} icon={<IdCard aria-hidden="true" className="size-4" />}>
            Continuar
          </Button>
        </>
      }
    >
      <form
        id={formId}
        noValidate
        className="flex flex-col gap-4"
        onSubmit={(event) => {
          event.preventDefault();
          proceed();
        }}
      >
        <ChoiceGroup
          legend="Para quem"
          options={SCOPES}
          value={scope}
          onChange={(value) => {
            setScope(value);
            setError(undefined);
          }}
          variant="segmented"
        />
        {scope === 'turma' ? (
          <SelectField
            label="Turma"
            options={[
              { value: '', label: 'Escolha a turma' },
              ...turmas.map((option) => ({ value: option.id, label: `${option.name} (${countOf(option.students, 'aluno', 'alunos')})` })),
            ]}
            value={turmaId}
            onChange={(event) => {
              setTurmaId(event.target.value);
              setError(undefined);
            }}
          />
        ) : (
          <>
            <StudentPicker
              selected={picked}
              onChange={(next) => {
                setPicked(next);
                setError(undefined);
              }}
              mode="multiple"
              label={texts.pickerLabel}
            />
            <p aria-live="polite" className="text-sm text-slate-700">
              {countOf(picked.size, 'aluno escolhido', 'alunos escolhidos')}
            </p>
          </>
        )}
        <p className="rounded-2xl bg-amber-50 p-3 text-sm text-amber-900 ring-1 ring-amber-200">{texts.warning}</p>
        <FormAlert message={error} />
      </form>
    </Modal>
  );
}

/** The cards of the students an import has just created (at most ACCESS_CARDS_MAX): from its result, so a lost CSV is not a dead end. */
export function ImportedAccessCards({
  students,
  onCancel,
  onDone,
}: {
  students: { id: string }[];
  onCancel: () => void;
  onDone: () => void;
}) {
  return (
    <ConfirmCards
      request={{ input: { studentIds: students.map((student) => student.id) }, count: students.length }}
      onCancel={onCancel}
      onDone={onDone}
    />
  );
}
