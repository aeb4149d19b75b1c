import type { ComponentType } from 'react';
import { lazyView } from '../ui/lazy-view.js';
import { BoardView } from './board/board-view.js';
import { ReviewList } from './review/review-list.js';
import { ReviewView } from './review/review-view.js';

/** A view: its route (wouter pattern), its component, and its navigation entry if it has one. */
export interface ViewEntry {
  readonly path: string;
  // biome-ignore lint/suspicious/noExplicitAny: wouter hands route params to the component
  readonly component: ComponentType<any>;
  readonly nav?: { readonly href: string; readonly label: string };
}

/** Every view of the workbench, in navigation order. Add a view here (see web/README.md). */
export const VIEWS: readonly ViewEntry[] = [
  { path: '/', component: BoardView, nav: { href: '/', label: 'Board' } },
  { path: '/review', component: ReviewList, nav: { href: '/review', label: 'Review' } },
  { path: '/review/:id', component: ReviewView },
  {
    path: '/relay',
    component: lazyView(async () => (await import('./relay/relay-list.js')).RelayList),
    nav: { href: '/relay', label: 'Relay' },
  },
  {
    path: '/relay/:session',
    component: lazyView(async () => (await import('./relay/relay-session.js')).RelaySessionPage),
  },
  {
    path: '/kernel',
    component: lazyView(async () => (await import('./kernel/kernel-view.js')).KernelView),
    nav: { href: '/kernel', label: 'Kernel' },
  },
];
