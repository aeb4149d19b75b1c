import { type ReactNode, useState } from 'react';

/**
 * The first `limit` items, and a button for the rest: a board of thousands of notes renders what a
 * person reads first at once, and the rest on request.
 */
export function Limited<T>({
  items,
  limit,
  children,
  noun = 'items',
}: {
  items: readonly T[];
  limit: number;
  children: (shown: readonly T[]) => ReactNode;
  noun?: string;
}) {
  const [all, setAll] = useState(false);
  const shown = all || items.length <= limit ? items : items.slice(0, limit);
  return (
    <>
      {children(shown)}
      {shown.length < items.length ? (
        <button type="button" className="more" onClick={() => setAll(true)}>
          Show all {items.length} {noun} ({items.length - shown.length} more)
        </button>
      ) : null}
    </>
  );
}
