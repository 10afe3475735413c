import type { ReactNode } from 'react';
import { Button, type ButtonVariant } from './button.tsx';
import { Modal, type ModalProps } from './modal.tsx';

export type FormModalProps = Omit<ModalProps, 'open' | 'footer' | 'dismissible'> & {
  /** The id of the form inside, which the submit button in the footer sends. */
  formId: string;
  /** While the form is being sent: the submit button spins, Cancelar and closing wait. */
  pending: boolean;
  submitLabel: ReactNode;
  submitVariant?: ButtonVariant;
};

/** A dialog holding one form, with Cancelar and the form's submit button at the bottom. */
export function FormModal({ formId, pending, submitLabel, submitVariant, onClose, children, ...modal }: FormModalProps) {
  return (
    <Modal
      open
      onClose={onClose}
      dismissible={!pending}
      footer={
        <>
          <Button variant="secondary" onClick={onClose} disabled={pending}>
            Cancelar
          </Button>
          <Button type="submit" form={formId} variant={submitVariant} loading={pending}>
            {submitLabel}
          </Button>
        </>
      }
      {...modal}
    >
      {children}
    </Modal>
  );
}
