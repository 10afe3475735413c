/** Whether the server marked the page as a demo (it then shows the demonstration credentials). */
export function isDemoMode(): boolean {
  return document.querySelector('meta[name="meritus-demo"]')?.getAttribute('content') === 'on';
}
