import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { useLocation } from 'wouter';
import { createApi, type Session } from './api/client.js';
import { useLiveJournal } from './api/live.js';
import { prefetchBoard } from './api/queries.js';
import type { Me } from './api/types.js';
import { SessionProvider } from './session/session-context.js';
import { SignIn } from './session/sign-in.js';
import { clearSession, loadSession, saveSession } from './session/storage.js';
import { refusedToken, useSignOutOnRefusal } from './session/use-refusal.js';
import { useWhoami } from './session/use-whoami.js';
import { Shell } from './shell.js';

/** Signed out: the sign-in form. Signed in: the workbench, once the server said who the token is. */
export function App() {
  const queries = useQueryClient();
  const [session, setSession] = useState<Session | null>(loadSession);
  const [notice, setNotice] = useState<string | null>(null);
  const signOut = (why: string | null = null) => {
    clearSession();
    queries.clear();
    setNotice(why);
    setSession(null);
  };
  if (!session) {
    return (
      <SignIn
        notice={notice}
        onSignedIn={(next, me) => {
          saveSession(next);
          queries.setQueryData(['whoami', next.project, next.token], me);
          setSession(next);
        }}
      />
    );
  }
  return <SignedIn session={session} signOut={signOut} />;
}

function SignedIn({
  session,
  signOut,
}: {
  session: Session;
  signOut: (why?: string | null) => void;
}) {
  const queries = useQueryClient();
  const [path] = useLocation();
  const api = useMemo(() => createApi(session), [session]);
  // whoami, and the journal's head then the board, at once: neither waits for the other. The board
  // is read only after the head (the feed follows from it), so nothing lands unseen between them.
  const refused = () => signOut('The token was refused; sign in again.');
  const whoami = useWhoami(api);
  const live = useLiveJournal(api);
  useSignOutOnRefusal(live.unauthenticated === true || refusedToken(whoami.error), refused);
  const boardFirst = live.ready && path === '/';
  useEffect(() => {
    if (boardFirst) prefetchBoard(queries, api);
  }, [boardFirst, queries, api]);
  if (!whoami.data) {
    return (
      <main className="loading" aria-busy="true">
        {whoami.error ? <p role="alert">{String(whoami.error.message)}</p> : <p>Signing in…</p>}
      </main>
    );
  }
  const me: Me = whoami.data;
  return (
    <SessionProvider value={{ api, me, signOut: () => signOut() }}>
      <Shell live={live} />
    </SessionProvider>
  );
}
