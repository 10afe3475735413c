/**
 * Copies text; false when the browser refuses (no permission, an insecure page, an old browser),
 * so the caller can say what was done without the copy.
 */
export async function copyToClipboard(text: string): Promise<boolean> {
  try {
    if (!navigator.clipboard) return false;
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

/** An address of this server as a whole link (what is pasted elsewhere): '/share/image/x' → 'https://escola…/share/image/x'. */
export function absoluteUrl(path: string): string {
  return new URL(path, window.location.origin).href;
}
