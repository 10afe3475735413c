import { BUILD_META } from '../../shared/constants.ts';

/** The build the server last said it serves (BUILD_HEADER on its answers, noted by api.ts). */
let serverBuild: string | null = null;
/** The server's build this tab already reloaded to: it never reloads twice to one build, so never in a loop. */
const RELOADED_KEY = 'meritus-reloaded-to-build';

export function noteServerBuild(build: string | null): void {
  if (build) serverBuild = build;
}

/**
 * Reloads the page when the server serves another build than the page's own (a deploy since it loaded), once per
 * build, remembered in sessionStorage. A page the server did not write its build into (Vite's dev server) never reloads.
 */
export function reloadIfOutdated(): void {
  const pageBuild = document.querySelector(`meta[name="${BUILD_META}"]`)?.getAttribute('content');
  if (!pageBuild || !serverBuild || serverBuild === pageBuild) return;
  try {
    if (sessionStorage.getItem(RELOADED_KEY) === serverBuild) return;
    sessionStorage.setItem(RELOADED_KEY, serverBuild);
  } catch {
    // Without sessionStorage nothing could stop a loop: no reload.
    return;
  }
  window.location.reload();
}
