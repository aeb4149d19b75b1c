import { type ComponentType, lazy, Suspense } from 'react';

/**
 * A view loaded on first visit (its own chunk: the board's first render does not pay for a view's
 * libraries), shown as "Loading…" meanwhile.
 */
export function lazyView<P extends object>(
  load: () => Promise<ComponentType<P>>,
): ComponentType<P> {
  const Lazy = lazy(async () => ({ default: await load() }));
  // biome-ignore lint/correctness/noComponentHookFactories: made once per view, when views/index.ts loads
  return function LazyView(props: P) {
    return (
      <Suspense
        fallback={
          <p className="muted" aria-busy="true">
            Loading…
          </p>
        }
      >
        <Lazy {...props} />
      </Suspense>
    );
  };
}
