// The reference of the dashboard's first-load JS: React 19 rendering one element, built by the
// same Vite and React plugin.
import { createRoot } from 'react-dom/client';

createRoot(document.getElementById('root')!).render(<p>Hello</p>);
