import type { Session } from '../api/client.js';

const KEY = 'canonry.workbench.session';
const PROJECT = /^[a-z0-9][a-z0-9_-]{0,63}$/;
const TOKEN = /^cnr_[A-Za-z0-9_-]{43}$/;

/** True for a project name the server accepts. */
export const validProject = (project: string): boolean => PROJECT.test(project);
/** True for the shape of a canonry bearer token (`cnr_` and 43 characters). */
export const validToken = (token: string): boolean => TOKEN.test(token);

/**
 * The session is kept in sessionStorage: it lasts as long as the tab, is not shared with other
 * tabs, and is never sent anywhere but the Authorization header of this origin's API calls.
 */
export function loadSession(): Session | null {
  try {
    const value = JSON.parse(sessionStorage.getItem(KEY) ?? 'null') as Partial<Session> | null;
    if (typeof value?.project !== 'string' || typeof value.token !== 'string') return null;
    if (!validProject(value.project) || !validToken(value.token)) return null;
    return { project: value.project, token: value.token };
  } catch {
    return null;
  }
}

export function saveSession(session: Session): void {
  sessionStorage.setItem(KEY, JSON.stringify(session));
}

export function clearSession(): void {
  sessionStorage.removeItem(KEY);
}
