/**
 * A project's name: 1–64 lowercase letters, digits, `_` and `-`, starting with a letter or digit.
 * It becomes a directory name and a URL segment, so every module holds names to this one rule.
 */
export const PROJECT_NAME = /^[a-z0-9][a-z0-9_-]{0,63}$/;

/** Whether `value` is a project name. */
export function isProjectName(value: unknown): value is string {
  return typeof value === 'string' && PROJECT_NAME.test(value);
}
