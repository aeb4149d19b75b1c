import { createContext, type ReactNode, useContext } from 'react';
import type { Api } from '../api/client.js';
import type { Me } from '../api/types.js';

interface SignedIn {
  readonly api: Api;
  readonly me: Me;
  readonly signOut: () => void;
}

const SessionContext = createContext<SignedIn | null>(null);

export function SessionProvider({ value, children }: { value: SignedIn; children: ReactNode }) {
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

function useSignedIn(): SignedIn {
  const value = useContext(SessionContext);
  if (!value) throw new Error('a view was rendered outside a signed-in session');
  return value;
}

/** The API client of the signed-in session. */
export const useApi = (): Api => useSignedIn().api;
/** Who the signed-in token stands for. */
export const useMe = (): Me => useSignedIn().me;
export const useSignOut = (): (() => void) => useSignedIn().signOut;
