import { useState, type FormEvent } from 'react';
import { Eye, EyeOff, KeyRound, Sparkles } from 'lucide-react';
import {
  ADMIN_STUDENT_TEXTS,
  createStudentInput,
  generateReadablePassword,
  updateStudentInput,
  type AdminStudent,
  type CreateStudentInput,
} from '../../../shared/admin-students.ts';
import { offeredTurmas, useSchoolSettings } from '../../lib/school-settings.ts';
import { ERROR_MESSAGES } from '../../../shared/errors.ts';
import { issueMessage } from '../../../shared/validation.ts';
import { isApiError, isRefusal } from '../../lib/api.ts';
import { useSelectArchiveImage } from '../../lib/archive-picker.ts';
import { formatMeritus } from '../../lib/format.ts';
import { toast, toastFailure } from '../../lib/toast.ts';
import { Button } from '../../ui/button.tsx';
import { IconButton } from '../../ui/icon-button.tsx';
import { FormModal } from '../../ui/form-modal.tsx';
import { focusFirstInvalid } from '../../ui/focus-invalid.ts';
import { SelectField } from '../../ui/select-field.tsx';
import { TextField } from '../../ui/text-field.tsx';
import { initialPhotoState, PhotoField, verifyUrl, type PhotoState } from './photo-field.tsx';
import { useCreateStudent, usePhotoChange, useUpdateStudent, type PhotoChange } from './students-queries.ts';

/** The photo change to send after the student is saved: one of the photo endpoints, or an archive image. */
type PendingPhoto = PhotoChange | { kind: 'archive'; imageId: string };

type Field = 'studentId' | 'name' | 'email' | 'password' | 'grade' | 'birthDate' | 'meritus';
type Values = Record<Field, string>;

const REQUIRED_LABEL = 'Campo obrigatório';

/** Which field a server refusal is about, so the message lands beside it. */
const FIELD_OF_CODE: Partial<Record<string, Field>> = {
  student_id_taken: 'studentId',
  email_taken: 'email',
  invalid_email: 'email',
  invalid_grade: 'grade',
  invalid_birth_date: 'birthDate',
  invalid_initial_meritus: 'meritus',
  password_too_short: 'password',
};

function initialValues(student: AdminStudent | null, firstTurma: string): Values {
  return {
    studentId: student?.studentId ?? '',
    name: student?.name ?? '',
    email: student?.email ?? '',
    password: '',
    grade: student?.grade ?? firstTurma,
    birthDate: student?.birthDate ?? '',
    meritus: '0',
  };
}

/** Méritus inicial: a whole number ≥ 0; anything else counts as 0, as the spec says. */
export function initialMeritus(text: string): number {
  const trimmed = text.trim();
  return /^\d+$/.test(trimmed) ? Number(trimmed) : 0;
}

/** The message for a failed photo upload: the server's for a refused file, else 'Erro no upload: …'. */
function photoErrorMessage(error: unknown): string {
  if (!isApiError(error)) return `Erro no upload: ${ERROR_MESSAGES.internal}`;
  if (
    [
      'invalid_photo_type',
      'photo_too_large',
      'invalid_photo_url',
      'photo_url_not_https',
      'unauthenticated',
      'network',
      'file_missing',
      'file_empty',
      'archive_photo_unavailable',
      'archive_image_not_found',
    ].includes(error.code)
  ) {
    return error.message;
  }
  return `Erro no upload: ${error.message}`;
}

type Props = {
  /** null = a new student. */
  student: AdminStudent | null;
  onClose: () => void;
  onResetPassword: (student: AdminStudent) => void;
};

/** Add or edit a student: the spec's fields, its validation messages, and the photo by URL or upload. */
export function StudentFormModal({ student, onClose, onResetPassword }: Props) {
  const creating = student === null;
  const turmas = useSchoolSettings().data?.turmas ?? [];
  // A retired turma takes no one new: offered only to a student already in it.
  const gradeOptions = offeredTurmas(turmas, (turma) => turma.name === student?.grade).map((turma) => ({
    value: turma.name,
    label: turma.name,
  }));
  const [initial] = useState<Values>(() => initialValues(student, gradeOptions[0]?.value ?? ''));
  const [values, setValues] = useState<Values>(initial);
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [serverError, setServerError] = useState<string | null>(null);
  const [showPassword, setShowPassword] = useState(false);
  const [photo, setPhoto] = useState<PhotoState>(() => initialPhotoState(student));
  const create = useCreateStudent();
  const update = useUpdateStudent();
  const photoChange = usePhotoChange();
  const selectImage = useSelectArchiveImage();
  const [checkingPhoto, setCheckingPhoto] = useState(false);
  const pending = create.isPending || update.isPending || photoChange.isPending || selectImage.isPending || checkingPhoto;

  const set = (field: Field) => (event: { target: { value: string } }) => {
    setValues((current) => ({ ...current, [field]: event.target.value }));
    setErrors((current) => ({ ...current, [field]: undefined }));
  };
  /** The value, change handler, error and disabled state every field of the form shares. */
  const bind = (field: Field) => ({ value: values[field], onChange: set(field), error: errors[field], disabled: pending });
  const patchPhoto = (patch: Partial<PhotoState>) => setPhoto((current) => ({ ...current, ...patch }));

  /** The photo change to send after the student is saved, or null when nothing changed. */
  const pendingPhotoChange = (): PendingPhoto | null => {
    if (photo.remove) return student?.photo ? { kind: 'remove' } : null;
    if (photo.mode === 'upload') return photo.file ? { kind: 'upload', file: photo.file } : null;
    if (photo.mode === 'archive') return photo.archive ? { kind: 'archive', imageId: photo.archive.id } : null;
    const url = photo.url.trim();
    const savedUrl = student?.photoSource === 'url' ? initialPhotoState(student).url : '';
    return url && url !== savedUrl ? { kind: 'url', url } : null;
  };

  const validate = (): CreateStudentInput | null => {
    const required: Field[] = creating ? ['studentId', 'name', 'password'] : ['studentId', 'name'];
    const missing = required.filter((field) => !values[field].trim());
    if (missing.length > 0) {
      setErrors(Object.fromEntries(missing.map((field) => [field, REQUIRED_LABEL])));
      toast.error(ERROR_MESSAGES.missing_fields);
      return null;
    }
    const candidate = {
      studentId: values.studentId,
      name: values.name,
      password: values.password,
      grade: values.grade,
      email: values.email,
      birthDate: values.birthDate,
      meritus: creating ? initialMeritus(values.meritus) : 0,
    };
    const schema = creating ? createStudentInput : createStudentInput.omit({ password: true, meritus: true });
    const parsed = schema.safeParse(candidate);
    if (!parsed.success) {
      const fieldErrors: Partial<Record<Field, string>> = {};
      for (const issue of parsed.error.issues) {
        const field = issue.path[0] as Field;
        fieldErrors[field] ??= issueMessage(issue);
      }
      setErrors(fieldErrors);
      return null;
    }
    return { ...candidate, grade: parsed.data.grade };
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    setServerError(null);
    const input = validate();
    if (!input) return focusFirstInvalid(form);
    if (photo.mode === 'url' && !photo.remove && photo.url.trim() && photo.urlStatus !== 'valid') {
      setCheckingPhoto(true);
      const ok = await verifyUrl(photo, patchPhoto);
      setCheckingPhoto(false);
      if (!ok) return;
    }
    const change = pendingPhotoChange();
    try {
      let saved: AdminStudent;
      let message: string;
      if (creating) {
        const result = await create.mutateAsync({ ...input, photo: change?.kind === 'url' ? change.url : null });
        saved = result.student;
        message = result.message;
      } else {
        const fields = updateStudentInput.parse({
          studentId: input.studentId,
          name: input.name,
          grade: input.grade,
          email: input.email,
          birthDate: input.birthDate,
        });
        const changed =
          fields.studentId !== student.studentId ||
          fields.name !== student.name ||
          fields.grade !== student.grade ||
          (fields.email ?? null) !== student.email ||
          (fields.birthDate ?? null) !== student.birthDate;
        if (changed) {
          const result = await update.mutateAsync({ id: student.id, input: fields });
          saved = result.student;
          message = result.message;
        } else {
          saved = student;
          message = change ? '' : ADMIN_STUDENT_TEXTS.updated(student.name);
        }
      }
      const photoStep = creating ? (change?.kind === 'upload' || change?.kind === 'archive' ? change : null) : change;
      if (photoStep) {
        try {
          // An archive image becomes the photo through the archive's select call (it counts the use).
          const result =
            photoStep.kind === 'archive'
              ? await selectImage.mutateAsync({ imageId: photoStep.imageId, studentId: saved.id })
              : await photoChange.mutateAsync({ id: saved.id, change: photoStep });
          if (!message) message = result.message;
        } catch (error) {
          if (message) toast.success(message);
          toastFailure(photoErrorMessage(error), error);
          if (creating) onClose();
          return;
        }
      }
      toast.success(message);
      onClose();
    } catch (error) {
      toastFailure(ADMIN_STUDENT_TEXTS.saveError, error);
      if (isRefusal(error)) {
        const field = FIELD_OF_CODE[error.code];
        if (field) {
          setErrors((current) => ({ ...current, [field]: error.message }));
          focusFirstInvalid(form);
        } else setServerError(error.message);
      }
    }
  };

  const formId = creating ? 'student-form-new' : `student-form-${student.id}`;
  return (
    <FormModal
      onClose={onClose}
      size="lg"
      title={creating ? 'Adicionar Aluno' : 'Editar Aluno'}
      description={creating ? 'Campos com * são obrigatórios.' : `Matrícula ${student.studentId}`}
      formId={formId}
      pending={pending}
      dirty={(Object.keys(values) as Field[]).some((field) => values[field] !== initial[field]) || pendingPhotoChange() !== null}
      submitLabel={creating ? 'Cadastrar aluno' : 'Salvar alterações'}
    >
      <form id={formId} noValidate onSubmit={(event) => void onSubmit(event)} className="flex flex-col gap-4">
        {serverError && (
          <p role="alert" className="rounded-xl bg-rose-50 px-3 py-2 text-sm font-medium text-rose-800 ring-1 ring-rose-200">
            {serverError}
          </p>
        )}
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField label="Nome completo *" {...bind('name')} autoComplete="off" containerClassName="sm:col-span-2" />
          <TextField label="Matrícula *" {...bind('studentId')} autoComplete="off" />
          <SelectField label="Turma" options={gradeOptions} {...bind('grade')} />
          <TextField label="Email" type="email" {...bind('email')} autoComplete="off" />
          <TextField label="Data de nascimento" type="date" {...bind('birthDate')} />
          {creating ? (
            <>
              <TextField
                label="Senha *"
                type={showPassword ? 'text' : 'password'}
                {...bind('password')}
                autoComplete="new-password"
                hint={
                  <span className="flex flex-wrap items-center gap-x-2">
                    Pelo menos 6 caracteres.
                    <button
                      type="button"
                      disabled={pending}
                      onClick={() => {
                        setValues((current) => ({ ...current, password: generateReadablePassword() }));
                        setErrors((current) => ({ ...current, password: undefined }));
                        setShowPassword(true);
                      }}
                      className="inline-flex items-center gap-1 rounded font-semibold text-indigo-700 underline-offset-2 hover:underline"
                    >
                      <Sparkles aria-hidden="true" className="size-3.5" />
                      Gerar senha
                    </button>
                  </span>
                }
                trailing={
                  <IconButton
                    size="sm"
                    label={showPassword ? 'Ocultar senha' : 'Mostrar senha'}
                    icon={showPassword ? <EyeOff aria-hidden="true" className="size-4" /> : <Eye aria-hidden="true" className="size-4" />}
                    onClick={() => setShowPassword((shown) => !shown)}
                  />
                }
              />
              <TextField
                label="Méritus inicial"
                type="number"
                inputMode="numeric"
                min={0}
                step={1}
                {...bind('meritus')}
                onBlur={() => setValues((current) => ({ ...current, meritus: String(initialMeritus(current.meritus)) }))}
                hint="Número inteiro a partir de 0; lançado no histórico como “Saldo inicial”."
              />
            </>
          ) : (
            <div className="flex flex-col gap-3 rounded-2xl bg-slate-50 p-4 ring-1 ring-slate-200 sm:col-span-2 sm:flex-row sm:items-center sm:justify-between">
              <div className="text-sm text-slate-700">
                <p>
                  Saldo: <strong className="text-slate-900">{formatMeritus(student.meritus)}</strong> · {student.estelecas} Estelecas
                </p>
                <p className="text-xs text-slate-600">Saldos mudam só por operações (Gerenciar M$ e Estelecas).</p>
              </div>
              <Button
                variant="secondary"
                size="sm"
                disabled={pending}
                icon={<KeyRound aria-hidden="true" className="size-4" />}
                onClick={() => onResetPassword(student)}
              >
                Redefinir senha
              </Button>
            </div>
          )}
        </div>
        <PhotoField name={values.name} currentPhoto={student?.photo ?? null} state={photo} onChange={patchPhoto} disabled={pending} />
      </form>
    </FormModal>
  );
}
