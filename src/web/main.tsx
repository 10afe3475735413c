import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app.tsx';
import { startSessionCheck } from './app/session-api.ts';
import './styles.css';

const container = document.getElementById('root');
if (!container) throw new Error('Elemento #root ausente em index.html');

startSessionCheck();
createRoot(container).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
