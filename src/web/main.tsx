import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app.tsx';
import { startSessionCheck } from './app/session-api.ts';
import './styles.css';

const container = document.getElementById('root');
if (!container) throw new Error('Elemento #root ausente em index.html');

startSessionCheck();
// Rendered as a transition, so the first render yields to the browser in small slices instead of one long task.
startTransition(() => {
  createRoot(container).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
});
