import { useState } from 'react';
import { CheckCircle2 } from 'lucide-react';
import { ARCHIVE_TEXTS, type ArchiveItem } from '../../../shared/archive.ts';
import { useSelectArchiveImage } from '../../lib/archive-picker.ts';
import { absoluteUrl, copyToClipboard } from '../../lib/clipboard.ts';
import { formatMeritus } from '../../lib/format.ts';
import { toast, toastError } from '../../lib/toast.ts';
import { ArchiveImagePicker } from '../../ui/archive-image-picker.tsx';
import { ArchiveThumbnail } from '../../ui/archive-thumbnail.tsx';
import { Button } from '../../ui/button.tsx';
import { Modal } from '../../ui/modal.tsx';
import { StudentPicker, type PickedStudents } from '../../ui/student-picker.tsx';

/**
 * 'Selecionar Imagem para Cadastro' from the gallery: an image (from the tabs, or the card it
 * was opened on) and a student; the server makes the image that student's photo and counts the use.
 */
export function SelectStudentModal({ initial, onClose }: { initial: ArchiveItem | null; onClose: () => void }) {
  const [image, setImage] = useState<ArchiveItem | null>(initial);
  const [picked, setPicked] = useState<PickedStudents>(new Map());
  const [done, setDone] = useState<{ message: string; copied: boolean } | null>(null);
  const select = useSelectArchiveImage();
  const studentId = [...picked.keys()][0];

  const confirm = () => {
    if (!image || !studentId) return;
    select.mutate(
      { imageId: image.id, studentId },
      {
        onSuccess: async (result) => {
          const copied = await copyToClipboard(absoluteUrl(result.photoUrl));
          toast.success(copied ? ARCHIVE_TEXTS.selected : ARCHIVE_TEXTS.selectedFallback(image.fileName));
          setDone({ message: result.message, copied });
        },
        onError: (error) => toastError(error, ARCHIVE_TEXTS.selectError),
      },
    );
  };

  return (
    <Modal
      open
      onClose={onClose}
      dismissible={!select.isPending}
      size="xl"
      title={ARCHIVE_TEXTS.pickerTitle}
      description="Escolha a imagem e o estudante que a terá como foto."
      footer={
        done ? (
          <Button onClick={onClose}>Concluir</Button>
        ) : (
          <>
            <Button variant="secondary" onClick={onClose} disabled={select.isPending}>
              {ARCHIVE_TEXTS.cancel}
            </Button>
            <Button onClick={confirm} loading={select.isPending} disabled={!image || !studentId}>
              Definir como foto
            </Button>
          </>
        )
      }
    >
      {done && image ? (
        <div role="status" className="flex flex-col items-center gap-3 py-4 text-center">
          <ArchiveThumbnail file={image} className="size-32 rounded-2xl" />
          <p className="inline-flex items-center gap-2 text-lg font-semibold text-emerald-800">
            <CheckCircle2 aria-hidden="true" className="size-5" />
            {ARCHIVE_TEXTS.pickerSelected}
          </p>
          <p className="text-sm text-slate-700">{done.message}</p>
          {done.copied && <p className="text-sm text-slate-600">{ARCHIVE_TEXTS.pickerUrlCopied}</p>}
        </div>
      ) : (
        <div className="grid gap-5 lg:grid-cols-2">
          <section aria-label="Imagem" className="min-w-0">
            <ArchiveImagePicker selectedId={image?.id ?? null} onSelect={setImage} disabled={select.isPending} />
          </section>
          <section aria-label="Estudante" className="flex min-w-0 flex-col gap-2">
            <p className="text-sm font-medium text-slate-800">{image ? `Imagem: ${image.fileName}` : 'Escolha uma imagem ao lado'}</p>
            <StudentPicker
              selected={picked}
              onChange={setPicked}
              mode="single"
              label="Estudantes"
              balanceOf={(student) => formatMeritus(student.meritus)}
            />
          </section>
        </div>
      )}
    </Modal>
  );
}
