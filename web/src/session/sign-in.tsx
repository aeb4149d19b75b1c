import { type FormEvent, useState } from 'react';
import { ApiError, createApi, type Session } from '../api/client.js';
import type { Me } from '../api/types.js';
import { validProject, validToken } from './storage.js';

interface Props {
  readonly onSignedIn: (session: Session, me: Me) => void;
  /** Why the last session ended, if it did (a revoked token). */
  readonly notice: string | null;
}

/** Sign in by pasting a project token; the server says who it stands for before anything shows. */
export function SignIn({ onSignedIn, notice }: Props) {
  const [project, setProject] = useState(
    () => new URLSearchParams(window.location.search).get('project') ?? '',
  );
  const [token, setToken] = useState('');
  const [error, setError] = useState<string | null>(notice);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const session = { project: project.trim(), token: token.trim() };
    if (!validProject(session.project)) return setError('That is not a project name.');
    if (!validToken(session.token)) return setError('A canonry token starts with cnr_.');
    setBusy(true);
    try {
      onSignedIn(session, await createApi(session).whoami());
    } catch (err) {
      setError(err instanceof ApiError ? `${err.code}: ${err.message}` : String(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <main className="sign-in">
      <h1>canonry workbench</h1>
      <p>Paste a token of the project to open its board. It is kept in this tab only.</p>
      <form onSubmit={submit} aria-describedby={error ? 'sign-in-error' : undefined}>
        <label>
          Project
          <input
            name="project"
            value={project}
            onChange={(e) => setProject(e.target.value)}
            autoComplete="off"
            spellCheck={false}
            required
          />
        </label>
        <label>
          Token
          <input
            name="token"
            type="password"
            value={token}
            onChange={(e) => setToken(e.target.value)}
            autoComplete="off"
            spellCheck={false}
            required
          />
        </label>
        <button type="submit" disabled={busy}>
          Sign in
        </button>
        {error ? (
          <p id="sign-in-error" role="alert" className="error">
            {error}
          </p>
        ) : null}
      </form>
    </main>
  );
}
