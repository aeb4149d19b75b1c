/**
 * Orders strings by UTF-16 code units — what `sort()` with no comparator does, and RFC 8785 orders
 * object members by — never by locale: the same order in every process, on every engine's rows once
 * they are sorted here.
 */
export const compareCodeUnits = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
