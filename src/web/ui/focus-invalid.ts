/**
 * After the render that marks them, moves the keyboard to the first field of `form` marked invalid (aria-invalid),
 * which also scrolls it into view: the message beside it is where the user has to act, often above a phone's screen.
 */
export function focusFirstInvalid(form: HTMLFormElement | null): void {
  requestAnimationFrame(() => form?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());
}
