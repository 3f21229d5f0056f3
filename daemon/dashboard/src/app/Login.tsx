// Shown when the server answers 401: it runs with API_TOKEN. The token goes into the cookie and is
// checked at once against /api/health.
import { type FormEvent, useState } from 'react';
import { api } from '../api/client';
import { live } from '../api/live';
import { Field } from '../ui/Field';
import { Mark } from '../ui/icons';
import { clearToken, saveToken } from './auth';

export function Login() {
  const [token, setToken] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    saveToken(token.trim());
    const status = await api.health().catch(() => 0);
    setBusy(false);
    if (status === 200) {
      live.restart();
      return;
    }
    clearToken();
    setError(
      status === 401
        ? 'This token is not accepted. It is the API_TOKEN the server was started with.'
        : 'The server could not be reached.',
    );
  };
  return (
    <main className="login">
      <form className="login-card" onSubmit={submit} noValidate>
        <h1>
          <Mark /> Tributary
        </h1>
        <p>
          This server needs its API token (the <code>API_TOKEN</code> it was started with).
        </p>
        <Field label="API token" errors={error ? [error] : undefined}>
          <input
            type="password"
            value={token}
            onChange={(event) => setToken(event.target.value)}
            autoComplete="current-password"
            required
          />
        </Field>
        <button type="submit" className="button" disabled={busy || token.trim() === ''}>
          {busy ? 'Checking…' : 'Sign in'}
        </button>
      </form>
    </main>
  );
}
