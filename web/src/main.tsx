import '@fontsource-variable/inter/wght.css';
import './index.css';
import { setNonce } from 'get-nonce';
import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { App } from './app/app.tsx';
import { cspStyleNonce } from './lib/csp-nonce.ts';

// Dialogs lock page scrolling with an injected <style>; the CSP allows it with this page's nonce.
const nonce = cspStyleNonce();
if (nonce) setNonce(nonce);

const container = document.getElementById('root');
if (!container) throw new Error('No #root element');

const app = (
  <StrictMode>
    <BrowserRouter>
      <App />
    </BrowserRouter>
  </StrictMode>
);

// Public pages arrive prerendered: hydrate them; every other page renders from scratch.
if (container.firstElementChild) hydrateRoot(container, app);
else createRoot(container).render(app);
