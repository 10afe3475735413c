import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { ImagePlus, Trash2, Upload } from 'lucide-react';
import { routes } from '../../../shared/contract/routes.ts';
import type { ArchiveItem } from '../../../shared/archive.ts';
import type { Currency } from '../../../shared/ledger-types.ts';
import {
  LIMIT_PERIOD_LABELS,
  LIMIT_PERIODS,
  STORE_CATEGORIES,
  STORE_CATEGORY_LABELS,
  STORE_ENTRY_TEXTS,
  STORE_LIMITS,
  storeItemInput,
  type AdminStoreItem,
  type LimitPeriod,
  type StoreCategory,
} from '../../../shared/store.ts';
import { ERROR_MESSAGES, isErrorCode } from '../../../shared/errors.ts';
import { issueCode, parseAmountText } from '../../../shared/validation.ts';
import { call, isRefusal } from '../../lib/api.ts';
import { cn } from '../../lib/cn.ts';
import { offeredTurmas, useSchoolSettings } from '../../lib/school-settings.ts';
import { toast, toastError } from '../../lib/toast.ts';
import { ArchiveImagePicker } from '../../ui/archive-image-picker.tsx';
import { ArchiveThumbnail } from '../../ui/archive-thumbnail.tsx';
import { Button } from '../../ui/button.tsx';
import { focusFirstInvalid } from '../../ui/focus-invalid.ts';
import { FormModal } from '../../ui/form-modal.tsx';
import { SelectField } from '../../ui/select-field.tsx';
import { AmountField, TextAreaField, TextField } from '../../ui/text-field.tsx';
import { ItemImage } from './item-image.tsx';
import { useCreateItem, useUpdateItem } from './store-queries.ts';

type Field =
  'name' | 'description' | 'image' | 'price' | 'goal' | 'deadline' | 'stock' | 'limit' | 'availableFrom' | 'availableUntil' | 'turmaIds';

type Values = {
  name: string;
  description: string;
  category: StoreCategory;
  currency: Currency;
  price: string;
  goal: string;
  deadline: string;
  unlimited: boolean;
  stock: string;
  /** '' = sem limite. */
  limitPeriod: LimitPeriod | '';
  limitCount: string;
  availableFrom: string;
  availableUntil: string;
  allTurmas: boolean;
  turmaIds: string[];
  active: boolean;
};

/** The image chosen for the item: its id, and what shows it in the form. */
type ChosenImage = { id: string; preview: ArchiveItem | null } | null;

function initialValues(item: AdminStoreItem | null): Values {
  return {
    name: item?.name ?? '',
    description: item?.description ?? '',
    category: item?.category ?? 'privilege',
    currency: item?.currency ?? 'meritus',
    price: item?.price?.toString() ?? '',
    goal: item?.goal?.toString() ?? '',
    deadline: item?.deadline ?? '',
    unlimited: item ? item.stock === null : true,
    stock: item?.stock?.toString() ?? '',
    limitPeriod: item?.limit?.period ?? '',
    limitCount: item?.limit?.count.toString() ?? '1',
    availableFrom: item?.availableFrom ?? '',
    availableUntil: item?.availableUntil ?? '',
    allTurmas: item ? item.turmaIds === null : true,
    turmaIds: item?.turmaIds ?? [],
    active: item?.active ?? true,
  };
}

const CURRENCY_OPTIONS = [
  { value: 'meritus', label: 'M$ (Méritus)' },
  { value: 'estelecas', label: 'Estelecas' },
] as const satisfies readonly { value: Currency; label: string }[];

/** A typed whole number; blank or anything else is NaN, for the schema to refuse with the field's own message. */
const numberOf = (text: string) => parseAmountText(text) ?? Number.NaN;

/** The request's fields from the form: a turma goal sends a goal and a deadline, any other item a price, stock and limit. */
function candidateOf(values: Values, image: ChosenImage) {
  const goal = values.category === 'turma';
  return {
    name: values.name,
    description: values.description,
    imageId: image?.id ?? null,
    category: values.category,
    currency: values.currency,
    price: goal ? null : (parseAmountText(values.price) ?? null),
    stock: goal || values.unlimited ? null : numberOf(values.stock),
    limit: goal || values.limitPeriod === '' ? null : { count: numberOf(values.limitCount), period: values.limitPeriod },
    goal: goal ? (parseAmountText(values.goal) ?? null) : null,
    deadline: goal ? values.deadline || null : null,
    availableFrom: values.availableFrom || null,
    availableUntil: values.availableUntil || null,
    turmaIds: values.allTurmas ? null : values.turmaIds,
    active: values.active,
  };
}

/** The field a code of the item's rules (storeItemRefusal, or the server's refusal) is about; the others show above the form. */
const FIELD_OF_CODE: Partial<Record<string, Field>> = {
  store_name_required: 'name',
  store_name_too_long: 'name',
  store_description_too_long: 'description',
  store_image_not_found: 'image',
  store_price_invalid: 'price',
  store_goal_invalid: 'goal',
  store_deadline_required: 'deadline',
  store_stock_invalid: 'stock',
  store_stock_below_orders: 'stock',
  store_limit_invalid: 'limit',
  store_period_order: 'availableUntil',
  store_turmas_invalid: 'turmaIds',
};

/** Where a schema issue lands: its path's first field, or, for the rules over several fields, the field its code names. */
function fieldOfIssue(issue: { path: readonly PropertyKey[]; message?: string | undefined }): Field | null {
  const first = issue.path[0];
  if (first === 'availableFrom' || first === 'availableUntil' || first === 'deadline') return first;
  return FIELD_OF_CODE[issueCode(issue)] ?? null;
}

/** A box with a legend, for a group of choices. */
function Group({
  legend,
  error,
  errorId,
  children,
  className,
}: {
  legend: string;
  error?: string | undefined;
  errorId: string;
  children: ReactNode;
  className?: string;
}) {
  return (
    <fieldset
      aria-describedby={error ? errorId : undefined}
      className={cn('flex min-w-0 flex-col gap-3 rounded-2xl border p-4', error ? 'border-rose-300' : 'border-slate-200', className)}
    >
      <legend className="px-1 text-sm font-medium text-slate-800">{legend}</legend>
      {children}
      {error && (
        <p id={errorId} role="alert" className="text-sm font-medium text-rose-700">
          {error}
        </p>
      )}
    </fieldset>
  );
}

function Check({
  label,
  checked,
  onChange,
  disabled,
  type = 'checkbox',
  name,
  invalid,
}: {
  label: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
  disabled?: boolean;
  type?: 'checkbox' | 'radio';
  name?: string;
  invalid?: boolean;
}) {
  return (
    <label className="flex min-h-9 cursor-pointer items-center gap-2.5 text-sm text-slate-800">
      <input
        type={type}
        name={name}
        checked={checked}
        disabled={disabled}
        aria-invalid={invalid || undefined}
        onChange={(event) => onChange(event.target.checked)}
        className="size-4 shrink-0 accent-indigo-600"
      />
      {label}
    </label>
  );
}

type Props = { item: AdminStoreItem | null; onClose: () => void };

/** Create or edit an item of the catalogue: every field of the issue, judged by the schema the server uses. */
export function ItemFormModal({ item, onClose }: Props) {
  const creating = item === null;
  const ids = useId();
  const turmas = offeredTurmas(useSchoolSettings().data?.turmas ?? [], (turma) => item?.turmaIds?.includes(turma.id) === true);
  const [initial] = useState(() => initialValues(item));
  const [values, setValues] = useState(initial);
  const [image, setImage] = useState<ChosenImage>(item?.imageId ? { id: item.imageId, preview: null } : null);
  const [picking, setPicking] = useState(false);
  const [uploading, setUploading] = useState(false);
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const create = useCreateItem();
  const update = useUpdateItem();
  const pending = create.isPending || update.isPending || uploading;
  const goal = values.category === 'turma';

  const set = <K extends keyof Values>(key: K, value: Values[K], field?: Field) => {
    setValues((current) => ({ ...current, [key]: value }));
    if (field) setErrors((current) => ({ ...current, [field]: undefined }));
  };
  const text = (key: 'name' | 'price' | 'goal' | 'deadline' | 'stock' | 'availableFrom' | 'availableUntil', field: Field = key) => ({
    value: values[key],
    onChange: (event: { target: { value: string } }) => set(key, event.target.value, field),
    error: errors[field],
    disabled: pending,
  });

  const chooseImage = (chosen: ArchiveItem) => {
    setImage({ id: chosen.id, preview: chosen });
    setErrors((current) => ({ ...current, image: undefined }));
    setPicking(false);
  };

  /** Sends a file to the Data-Base (as its Upload does) and takes the stored image as the item's. */
  const uploadImage = async (file: File | undefined) => {
    if (!file) return;
    const form = new FormData();
    form.append('category', 'galeria');
    form.append('files', file);
    setUploading(true);
    try {
      const result = await call(routes.archive.upload, { body: form });
      const stored = result.results.find((entry) => entry.ok);
      if (stored?.ok) chooseImage(stored.item);
      toast.success(result.message);
    } catch (error) {
      toastError(error);
    } finally {
      setUploading(false);
    }
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    setFormError(null);
    const parsed = storeItemInput.safeParse(candidateOf(values, image));
    if (!parsed.success) {
      const found: Partial<Record<Field, string>> = {};
      for (const issue of parsed.error.issues) {
        const field = fieldOfIssue(issue);
        const message = ERROR_MESSAGES[issueCode(issue)];
        if (field) found[field] ??= message;
        else setFormError(message);
      }
      setErrors(found);
      return focusFirstInvalid(form);
    }
    try {
      const saved = creating ? await create.mutateAsync(parsed.data) : await update.mutateAsync({ id: item.id, change: parsed.data });
      toast.success(creating ? STORE_ENTRY_TEXTS.itemCreated(saved.name) : STORE_ENTRY_TEXTS.itemUpdated(saved.name));
      onClose();
    } catch (error) {
      toastError(error, 'Erro ao salvar item');
      if (!isRefusal(error)) return;
      const field = isErrorCode(error.code) ? FIELD_OF_CODE[error.code] : undefined;
      if (field) {
        setErrors((current) => ({ ...current, [field]: error.message }));
        focusFirstInvalid(form);
      } else setFormError(error.message);
    }
  };

  const formId = creating ? 'store-item-new' : `store-item-${item.id}`;
  const dirty = JSON.stringify(values) !== JSON.stringify(initial) || (image?.id ?? null) !== (item?.imageId ?? null);
  return (
    <FormModal
      onClose={onClose}
      size="lg"
      title={creating ? 'Novo item' : 'Editar item'}
      description={creating ? 'Campos com * são obrigatórios.' : item.name}
      formId={formId}
      pending={pending}
      dirty={dirty}
      submitLabel={creating ? 'Criar item' : 'Salvar alterações'}
    >
      <form id={formId} noValidate onSubmit={(event) => void onSubmit(event)} className="flex flex-col gap-4">
        {formError && (
          <p role="alert" className="rounded-xl bg-rose-50 px-3 py-2 text-sm font-medium text-rose-800 ring-1 ring-rose-200">
            {formError}
          </p>
        )}
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField
            label="Nome *"
            {...text('name')}
            maxLength={STORE_LIMITS.nameMax}
            autoComplete="off"
            containerClassName="sm:col-span-2"
          />
          <TextAreaField
            label="Descrição"
            value={values.description}
            onChange={(event) => set('description', event.target.value, 'description')}
            error={errors.description}
            disabled={pending}
            maxLength={STORE_LIMITS.descriptionMax}
            hint={`${values.description.length}/${STORE_LIMITS.descriptionMax} caracteres`}
            containerClassName="sm:col-span-2"
          />
          <SelectField
            label="Categoria"
            options={STORE_CATEGORIES.map((category) => ({ value: category, label: STORE_CATEGORY_LABELS[category] }))}
            value={values.category}
            disabled={pending}
            hint={goal ? 'Meta da turma: os alunos contribuem até atingir a meta, antes do prazo.' : undefined}
            onChange={(event) => set('category', event.target.value as StoreCategory)}
          />
          <SelectField
            label="Moeda"
            options={CURRENCY_OPTIONS}
            value={values.currency}
            disabled={pending}
            onChange={(event) => set('currency', event.target.value as Currency)}
          />
          {goal ? (
            <>
              <AmountField
                label="Meta *"
                {...text('goal')}
                onValueChange={(value) => set('goal', value, 'goal')}
                hint="Valor inteiro que a turma precisa juntar."
              />
              <TextField label="Prazo *" type="date" {...text('deadline')} hint="Último dia para contribuir." />
            </>
          ) : (
            <>
              <AmountField
                label="Preço *"
                {...text('price')}
                onValueChange={(value) => set('price', value, 'price')}
                hint="Número inteiro a partir de 1."
              />
              <Group legend="Estoque" error={errors.stock} errorId={`${ids}-stock`}>
                <Check
                  label="Ilimitado"
                  checked={values.unlimited}
                  disabled={pending}
                  onChange={(checked) => set('unlimited', checked, 'stock')}
                />
                {!values.unlimited && (
                  <TextField
                    label="Unidades em estoque"
                    inputMode="numeric"
                    autoComplete="off"
                    value={values.stock}
                    onChange={(event) => set('stock', event.target.value, 'stock')}
                    aria-invalid={errors.stock ? true : undefined}
                    disabled={pending}
                  />
                )}
              </Group>
              <Group legend="Limite por aluno" error={errors.limit} errorId={`${ids}-limit`} className="sm:col-span-2">
                <div className="grid gap-3 sm:grid-cols-2">
                  <SelectField
                    label="Período"
                    options={[
                      { value: '', label: 'Sem limite' },
                      ...LIMIT_PERIODS.map((period) => ({
                        value: period,
                        label: period === 'ever' ? 'Sempre (no total)' : `Por ${LIMIT_PERIOD_LABELS[period].per}`,
                      })),
                    ]}
                    value={values.limitPeriod}
                    disabled={pending}
                    onChange={(event) => set('limitPeriod', event.target.value as LimitPeriod | '', 'limit')}
                  />
                  {values.limitPeriod !== '' && (
                    <TextField
                      label="Quantidade máxima"
                      inputMode="numeric"
                      autoComplete="off"
                      value={values.limitCount}
                      onChange={(event) => set('limitCount', event.target.value, 'limit')}
                      aria-invalid={errors.limit ? true : undefined}
                      disabled={pending}
                    />
                  )}
                </div>
              </Group>
            </>
          )}
          <TextField label="Disponível de" type="date" {...text('availableFrom')} hint="Vazio: desde já." />
          <TextField label="Disponível até" type="date" {...text('availableUntil')} hint="Vazio: sem data para acabar." />
        </div>

        <Group legend="Turmas que podem comprar" error={errors.turmaIds} errorId={`${ids}-turmas`}>
          <div className="flex flex-wrap gap-x-6">
            <Check
              type="radio"
              name={`${ids}-turmas-mode`}
              label="Todas as turmas"
              checked={values.allTurmas}
              disabled={pending}
              onChange={() => set('allTurmas', true, 'turmaIds')}
            />
            <Check
              type="radio"
              name={`${ids}-turmas-mode`}
              label="Escolher turmas"
              checked={!values.allTurmas}
              disabled={pending}
              onChange={() => set('allTurmas', false, 'turmaIds')}
            />
          </div>
          {!values.allTurmas && (
            <div className="grid grid-cols-2 gap-x-4 sm:grid-cols-3">
              {turmas.map((turma) => (
                <Check
                  key={turma.id}
                  label={turma.name}
                  checked={values.turmaIds.includes(turma.id)}
                  disabled={pending}
                  invalid={Boolean(errors.turmaIds)}
                  onChange={(checked) =>
                    set('turmaIds', checked ? [...values.turmaIds, turma.id] : values.turmaIds.filter((id) => id !== turma.id), 'turmaIds')
                  }
                />
              ))}
            </div>
          )}
        </Group>

        <Group legend="Imagem" error={errors.image} errorId={`${ids}-image`}>
          <div className="flex flex-col gap-3 sm:flex-row sm:items-center">
            {image ? (
              image.preview ? (
                <ArchiveThumbnail file={image.preview} className="size-20 shrink-0 rounded-xl" iconClassName="size-8" />
              ) : (
                <ItemImage
                  item={{ id: item?.id ?? '', imageId: image.id, category: values.category }}
                  className="size-20 shrink-0 rounded-xl"
                />
              )
            ) : (
              <p className="text-sm text-slate-600">Sem imagem: o item mostra o ícone da categoria.</p>
            )}
            <div className="flex flex-wrap gap-2">
              <Button
                variant="secondary"
                size="sm"
                disabled={pending}
                aria-expanded={picking}
                icon={<ImagePlus aria-hidden="true" className="size-4" />}
                onClick={() => setPicking((open) => !open)}
              >
                Escolher do Data-Base
              </Button>
              <label
                className={cn(
                  'inline-flex h-9 cursor-pointer items-center gap-1.5 rounded-lg border border-slate-300 bg-white px-3 text-sm font-semibold',
                  'text-slate-800 shadow-sm focus-within:ring-2 focus-within:ring-indigo-500 hover:bg-slate-50',
                  pending && 'cursor-not-allowed opacity-60',
                )}
              >
                <Upload aria-hidden="true" className="size-4" />
                {uploading ? 'Enviando...' : 'Enviar imagem'}
                <input
                  type="file"
                  accept="image/*"
                  className="sr-only"
                  disabled={pending}
                  onChange={(event) => {
                    void uploadImage(event.target.files?.[0]);
                    event.target.value = '';
                  }}
                />
              </label>
              {image && (
                <Button
                  variant="ghost"
                  size="sm"
                  disabled={pending}
                  icon={<Trash2 aria-hidden="true" className="size-4" />}
                  onClick={() => setImage(null)}
                >
                  Remover imagem
                </Button>
              )}
            </div>
          </div>
          {picking && <ArchiveImagePicker selectedId={image?.id ?? null} onSelect={chooseImage} disabled={pending} />}
        </Group>

        <Check
          label="Ativo (aparece na loja dos alunos)"
          checked={values.active}
          disabled={pending}
          onChange={(checked) => set('active', checked)}
        />
      </form>
    </FormModal>
  );
}
