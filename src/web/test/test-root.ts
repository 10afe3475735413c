import { act, type ReactNode } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach } from 'vitest';

declare global {
  var IS_REACT_ACT_ENVIRONMENT: boolean;
}
// Tells React its updates are driven by act(), as in every test that renders.
globalThis.IS_REACT_ACT_ENVIRONMENT = true;

/**
 * A React root in a fresh container for each test of the file, unmounted and removed after
 * it. Call at the top of a test file; `render` mounts inside act(), `container()` is this
 * test's element.
 */
export function mountPerTest(): { render: (node: ReactNode) => void; container: () => HTMLDivElement } {
  let container: HTMLDivElement;
  let root: Root;
  beforeEach(() => {
    container = document.createElement('div');
    document.body.append(container);
    root = createRoot(container);
  });
  afterEach(() => {
    act(() => root.unmount());
    container.remove();
  });
  return { render: (node) => act(() => root.render(node)), container: () => container };
}
