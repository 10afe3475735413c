import { Component, lazy, type ComponentType, type ReactNode } from 'react';
import { Button } from '../ui/button.tsx';
import { auth } from '../../shared/contract/auth.ts';
import { api } from '../lib/api.ts';
import { reloadIfOutdated } from '../lib/build-version.ts';

/** Bumped by each retry of a boundary: an import that failed before it is tried anew. */
let attempt = 0;

/**
 * React.lazy keeps a failed import's error for good, so a screen opened while the network was down would fail forever.
 * This one imports again after a boundary's retry, not on its own: a retry on every render would loop while the network
 * is down (a suspended navigation renders again and again), never letting the boundary show.
 */
export function lazyRetrying(load: () => Promise<{ default: ComponentType }>): ComponentType {
  let failedAt: number | undefined;
  const fresh = () =>
    lazy(() =>
      load().catch((error: unknown) => {
        failedAt = attempt;
        throw error;
      }),
    );
  let Current = fresh();
  return function Retrying() {
    if (failedAt !== undefined && failedAt < attempt) {
      failedAt = undefined;
      Current = fresh();
    }
    return <Current />;
  };
}

type Props = { children: ReactNode; fullScreen?: boolean; resetKey?: string };
type State = { error: boolean; resetKey: string | undefined };

/**
 * What a route shows when it cannot render (its code did not arrive, or it failed), instead of a blank page: the
 * reason and 'Tentar de novo', which renders it again; it also does so by itself when the browser is back online.
 * A failed chunk of a build the server no longer serves has the page reload to the new one (build-version.ts).
 * Another `resetKey` (the next screen opened from the menu) clears it.
 */
export class RouteErrorBoundary extends Component<Props, State> {
  override state: State = { error: false, resetKey: this.props.resetKey };

  static getDerivedStateFromError(): Partial<State> {
    return { error: true };
  }

  static getDerivedStateFromProps(props: Props, state: State): Partial<State> | null {
    return props.resetKey === state.resetKey ? null : { error: false, resetKey: props.resetKey };
  }

  override componentDidMount() {
    window.addEventListener('online', this.retry);
  }

  override componentDidCatch() {
    // The server's answer names the build it serves (api.ts): a chunk of a build it no longer has reloads the page to its own.
    api.call(auth.me).then(reloadIfOutdated, reloadIfOutdated);
  }

  override componentWillUnmount() {
    window.removeEventListener('online', this.retry);
  }

  retry = () => {
    attempt += 1;
    this.setState({ error: false });
  };

  override render() {
    if (!this.state.error) return this.props.children;
    return (
      <div
        role="alert"
        className={
          this.props.fullScreen ? 'flex min-h-dvh flex-col items-center justify-center gap-4 p-6' : 'flex flex-col items-center gap-4 py-16'
        }
      >
        <p className="text-center text-lg font-semibold text-slate-900">Não foi possível abrir esta tela.</p>
        <Button onClick={this.retry}>Tentar de novo</Button>
      </div>
    );
  }
}
