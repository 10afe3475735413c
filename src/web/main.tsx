import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app.tsx';
import { startSessionCheck } from './lib/session-api.ts';
import { api } from './lib/api.ts';
import { showReconnecting } from './lib/connection-notice.ts';
import { loadArea } from './app/areas.ts';
import { startEarlyRequest } from './lib/early-request.ts';
import { areaOfLocation } from '../shared/areas.ts';
import { settings } from '../shared/contract/settings.ts';
import './styles.css';

const container = document.getElementById('root');
if (!container) throw new Error('Elemento #root ausente em index.html');

showReconnecting(api);
startSessionCheck();
// An area's page fetches its code and the settings its layout waits for now, beside the session check, instead of
// once React has rendered the route and the layout has run.
const area = areaOfLocation(window.location.pathname);
if (area) {
  loadArea(area).catch(() => undefined);
  startEarlyRequest(settings.read);
}
// Rendered as a transition, so the first render yields to the browser in small slices instead of one long task.
startTransition(() => {
  createRoot(container).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
});
