import { useState, type FormEvent } from 'react';
import {
  ARCHIVE_ACCESS_LABELS,
  ARCHIVE_ACCESS_LEVELS,
  ARCHIVE_CATEGORIES,
  ARCHIVE_CATEGORY_LABELS,
  ARCHIVE_TEXTS,
  archiveEditInput,
  parseTags,
  type ArchiveAccessLevel,
  type ArchiveCategory,
  type ArchiveItem,
} from '../../../shared/archive.ts';
import { issueMessage } from '../../../shared/validation.ts';
import { toast, toastFailure } from '../../lib/toast.ts';
import { FormAlert } from '../../ui/form-alert.tsx';
import { FormModal } from '../../ui/form-modal.tsx';
import { SelectField, type SelectFieldProps } from '../../ui/select-field.tsx';
import { TextAreaField, TextField } from '../../ui/text-field.tsx';
import { failureReason, useEditImage } from './archive-queries.ts';

const CATEGORY_OPTIONS = ARCHIVE_CATEGORIES.map((category) => ({ value: category, label: ARCHIVE_CATEGORY_LABELS[category] }));
export const ACCESS_OPTIONS = ARCHIVE_ACCESS_LEVELS.map((level) => ({ value: level, label: ARCHIVE_ACCESS_LABELS[level] }));

/** The category and access-level selects the edit, upload and bulk forms share; the label changes in the bulk bar. */
type ChoiceProps<T extends string> = Omit<SelectFieldProps, 'label' | 'options' | 'value' | 'onChange'> & {
  label?: string;
  value: T;
  onValue: (value: T) => void;
};

export function CategorySelect({ label = 'Categoria', value, onValue, ...rest }: ChoiceProps<ArchiveCategory>) {
  return (
    <SelectField
      label={label}
      options={CATEGORY_OPTIONS}
      value={value}
      onChange={(event) => onValue(event.target.value as ArchiveCategory)}
      {...rest}
    />
  );
}

export function AccessLevelSelect({ label = 'Nível de acesso', value, onValue, ...rest }: ChoiceProps<ArchiveAccessLevel>) {
  return (
    <SelectField
      label={label}
      options={ACCESS_OPTIONS}
      value={value}
      onChange={(event) => onValue(event.target.value as ArchiveAccessLevel)}
      {...rest}
    />
  );
}

export function Checkbox({
  label,
  checked,
  onChange,
  disabled,
}: {
  label: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
  disabled?: boolean;
}) {
  return (
    <label className="flex min-h-11 cursor-pointer items-center gap-2 text-sm font-medium text-slate-800">
      <input
        type="checkbox"
        checked={checked}
        disabled={disabled}
        onChange={(event) => onChange(event.target.checked)}
        className="size-5 accent-indigo-600"
      />
      {label}
    </label>
  );
}

/** 'Editar Imagem': opens with a copy of the record; saving closes it and the list reloads. */
export function EditModal({ item, onClose }: { item: ArchiveItem; onClose: () => void }) {
  const edit = useEditImage();
  const [description, setDescription] = useState(item.description);
  const [category, setCategory] = useState<ArchiveCategory>(item.category);
  const [tags, setTags] = useState(item.tags.join(', '));
  const [albumName, setAlbumName] = useState(item.albumName ?? '');
  const [accessLevel, setAccessLevel] = useState<ArchiveAccessLevel>(item.accessLevel);
  const [isActive, setIsActive] = useState(item.isActive);
  const [isFeatured, setIsFeatured] = useState(item.isFeatured);
  const [error, setError] = useState<string>();

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setError(undefined);
    const parsed = archiveEditInput.safeParse({
      description,
      category,
      tags: parseTags(tags),
      albumName,
      accessLevel,
      isActive,
      isFeatured,
    });
    if (!parsed.success) {
      setError(issueMessage(parsed.error.issues[0]!));
      return;
    }
    try {
      const result = await edit.mutateAsync({ id: item.id, input: parsed.data });
      toast.success(result.message);
      onClose();
    } catch (failure) {
      const reason = failureReason(failure);
      setError(reason);
      toastFailure(ARCHIVE_TEXTS.updateError(reason), failure);
    }
  };

  const formId = `archive-edit-${item.id}`;
  const pending = edit.isPending;
  const dirty =
    description !== item.description ||
    category !== item.category ||
    tags !== item.tags.join(', ') ||
    albumName !== (item.albumName ?? '') ||
    accessLevel !== item.accessLevel ||
    isActive !== item.isActive ||
    isFeatured !== item.isFeatured;
  return (
    <FormModal
      onClose={onClose}
      size="lg"
      title={ARCHIVE_TEXTS.editTitle}
      description={item.fileName}
      formId={formId}
      pending={pending}
      dirty={dirty}
      submitLabel={ARCHIVE_TEXTS.save}
    >
      <form id={formId} noValidate onSubmit={(event) => void onSubmit(event)} className="flex flex-col gap-4">
        <FormAlert message={error} />
        <TextAreaField
          label="Descrição"
          value={description}
          maxLength={1000}
          onChange={(event) => setDescription(event.target.value)}
          disabled={pending}
        />
        <div className="grid gap-4 sm:grid-cols-2">
          <CategorySelect value={category} onValue={setCategory} disabled={pending} />
          <AccessLevelSelect value={accessLevel} onValue={setAccessLevel} disabled={pending} />
          <TextField
            label="Tags"
            hint="Separadas por vírgula"
            value={tags}
            onChange={(event) => setTags(event.target.value)}
            disabled={pending}
          />
          <TextField
            label="Nome do álbum"
            value={albumName}
            maxLength={100}
            onChange={(event) => setAlbumName(event.target.value)}
            disabled={pending}
          />
        </div>
        <div className="flex flex-wrap gap-x-6">
          <Checkbox label={ARCHIVE_TEXTS.activeCheckbox} checked={isActive} onChange={setIsActive} disabled={pending} />
          {/* Pública is the access level's public choice: unticking a public image makes it private. */}
          <Checkbox
            label={ARCHIVE_TEXTS.publicCheckbox}
            checked={accessLevel === 'public'}
            onChange={(checked) => setAccessLevel(checked ? 'public' : accessLevel === 'public' ? 'private' : accessLevel)}
            disabled={pending}
          />
          <Checkbox label={ARCHIVE_TEXTS.featuredCheckbox} checked={isFeatured} onChange={setIsFeatured} disabled={pending} />
        </div>
      </form>
    </FormModal>
  );
}
