/**
 * The form a submit event came from and its fields, read at once: once the event has been dispatched
 * its target (in a shadow root) is cleared, so they are read before any await. The page stays where it is.
 */
export function submittedForm(event: SubmitEvent): { form: HTMLFormElement; fields: FormData } {
  event.preventDefault();
  const form = event.target as HTMLFormElement;
  return { form, fields: new FormData(form) };
}
