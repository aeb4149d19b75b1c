import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { ApiError } from '../api/client.js';
import { UserText } from './user-text.js';

/** An error as the server typed it: its code first, so a person can look it up (docs/errors.md). */
export function ErrorNote({ error }: { error: unknown }) {
  // A message may quote what was sent (an id, a label): shown as text someone else wrote.
  const [lead, text] =
    error instanceof ApiError
      ? [`${error.code}: `, error.message]
      : ['Something failed: ', String(error)];
  return (
    <p role="alert" className="error">
      {lead}
      <UserText text={text} />
    </p>
  );
}

/** Renders a query's data, or its loading or error state. */
export function QueryState<T>({
  query,
  children,
}: {
  query: UseQueryResult<T>;
  children: (data: T) => ReactNode;
}) {
  if (query.data !== undefined) return <>{children(query.data)}</>;
  if (query.error) return <ErrorNote error={query.error} />;
  return (
    <p className="muted" aria-busy="true">
      Loading…
    </p>
  );
}

/** What a list read a page at a time tells its foot (an infinite query's state). */
interface Pages {
  readonly data: unknown;
  readonly error: unknown;
  readonly hasNextPage: boolean;
  readonly isFetchingNextPage: boolean;
  fetchNextPage(): Promise<unknown>;
}

/** A paged list's foot: a later page's error, and the button that loads the next `page`. */
export function MorePages({ pages, page }: { pages: Pages; page: number }) {
  return (
    <>
      {pages.data !== undefined && pages.error ? <ErrorNote error={pages.error} /> : null}
      {pages.hasNextPage ? (
        <button
          type="button"
          className="more"
          disabled={pages.isFetchingNextPage}
          onClick={() => void pages.fetchNextPage()}
        >
          {pages.isFetchingNextPage ? 'Loading…' : `Show ${page} more`}
        </button>
      ) : null}
    </>
  );
}
