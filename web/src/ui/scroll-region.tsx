import type { ReactNode } from 'react';

/**
 * A labelled region that scrolls on its own (a wide table on a phone, a large graph). It takes the
 * keyboard focus, so a person without a pointer can scroll it with the arrow keys.
 */
export function ScrollRegion({
  label,
  className,
  children,
}: {
  label: string;
  className: string;
  children: ReactNode;
}) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolled region must be reachable by keyboard to scroll it
    <section className={className} aria-label={label} tabIndex={0}>
      {children}
    </section>
  );
}
