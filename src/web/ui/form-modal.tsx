import { Fragment, useEffect, useRef, useState, type ReactNode } from 'react';
import { MESSAGES } from '../../shared/messages-core.ts';
import { Button, type ButtonVariant } from './button.tsx';
import { Modal, type ModalProps } from './modal.tsx';

export type FormModalProps = Omit<ModalProps, 'open' | 'footer' | 'dismissible'> & {
  /** The id of the form inside, which the submit button in the footer sends. */
  formId: string;
  /** While the form is being sent: the submit button spins, Cancelar and closing wait. */
  pending: boolean;
  submitLabel: ReactNode;
  submitVariant?: ButtonVariant;
  /** The form holds changes not saved yet: closing it (Cancelar, Escape, the overlay, Fechar) asks first. */
  dirty?: boolean;
};

/** A dialog holding one form, with Cancelar and the form's submit button at the bottom. */
export function FormModal({ formId, pending, submitLabel, submitVariant, dirty = false, onClose, children, ...modal }: FormModalProps) {
  const [confirmingLeave, setConfirmingLeave] = useState(false);
  const leaving = confirmingLeave && dirty;
  const keepEditingRef = useRef<HTMLButtonElement>(null);
  // Where the user was when they tried to close: editing resumes there.
  const resumeAtRef = useRef<HTMLElement | null>(null);
  useEffect(() => {
    if (leaving) keepEditingRef.current?.focus();
    else if (resumeAtRef.current?.isConnected) resumeAtRef.current.focus();
  }, [leaving]);
  const askFirst = () => {
    resumeAtRef.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    setConfirmingLeave(true);
  };
  // A second Escape while the question is shown answers it with 'keep editing'.
  const requestClose = () => (leaving ? setConfirmingLeave(false) : dirty ? askFirst() : onClose());
  return (
    <Modal
      open
      onClose={requestClose}
      dismissible={!pending}
      footer={
        // Keyed, so the question's buttons are new ones rather than the form's restyled in place.
        leaving ? (
          <Fragment key="leave">
            {/* Above the buttons on a phone, where the footer's column runs bottom up. */}
            <p role="alert" className="order-last text-sm font-medium text-slate-800 sm:order-none sm:mr-auto sm:self-center">
              {MESSAGES.leaveUnsaved}
            </p>
            <Button
              ref={keepEditingRef}
              variant="secondary"
              className="shrink-0 whitespace-nowrap"
              onClick={() => setConfirmingLeave(false)}
            >
              {MESSAGES.keepEditing}
            </Button>
            <Button variant="danger" className="shrink-0 whitespace-nowrap" onClick={onClose}>
              {MESSAGES.leaveWithoutSaving}
            </Button>
          </Fragment>
        ) : (
          <Fragment key="form">
            <Button variant="secondary" onClick={requestClose} disabled={pending}>
              Cancelar
            </Button>
            <Button type="submit" form={formId} variant={submitVariant} loading={pending}>
              {submitLabel}
            </Button>
          </Fragment>
        )
      }
      {...modal}
    >
      {children}
    </Modal>
  );
}
