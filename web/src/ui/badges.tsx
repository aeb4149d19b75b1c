import type { ReactNode } from 'react';
import type { Role } from '../api/types.js';

export type Tone = 'neutral' | 'good' | 'warn' | 'bad' | 'person' | 'model';

/** A small labelled mark. Its text says what it means; the tone only repeats it in colour. */
export function Badge({
  tone = 'neutral',
  title,
  children,
}: {
  tone?: Tone;
  title?: string;
  children: ReactNode;
}) {
  return (
    <span className={`badge badge-${tone}`} title={title}>
      {children}
    </span>
  );
}

export function RoleBadge({ role }: { role: Role }) {
  const person = role === 'owner' || role === 'editor' || role === 'viewer';
  return <Badge tone={person ? 'person' : 'model'}>{role}</Badge>;
}

/** `sha256:abcdef…` shortened for reading, whole in its title. */
export function Hash({ value }: { value: string | null | undefined }) {
  if (!value) return <span className="muted">none</span>;
  const short = value.startsWith('sha256:') ? `${value.slice(7, 19)}…` : value;
  return (
    <code className="hash" title={value}>
      {short}
    </code>
  );
}
