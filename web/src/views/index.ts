import { type ComponentType, lazy } from 'react';
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

/**
 * Every view of the workbench, in navigation order. Add a view here (see web/README.md); a view
 * the board does not need is loaded when first shown (`lazy` over its folder's default export).
 */
export const VIEWS: readonly ViewEntry[] = [
  { path: '/', component: BoardView, nav: { href: '/', label: 'Board' } },
  { path: '/review', component: ReviewList, nav: { href: '/review', label: 'Review' } },
  { path: '/review/:id', component: ReviewView },
  { path: '/notes/:id', component: lazy(() => import('./note/index.js')) },
  {
    path: '/journal',
    component: lazy(() => import('./journal/index.js')),
    nav: { href: '/journal', label: 'Journal' },
  },
  {
    path: '/artifacts',
    component: lazy(() => import('./artifacts/index.js')),
    nav: { href: '/artifacts', label: 'Artifacts' },
  },
  {
    path: '/relay',
    component: lazy(async () => ({ default: (await import('./relay/relay-list.js')).RelayList })),
    nav: { href: '/relay', label: 'Relay' },
  },
  {
    path: '/relay/:session',
    component: lazy(async () => ({
      default: (await import('./relay/relay-session.js')).RelaySessionPage,
    })),
  },
  {
    path: '/kernel',
    component: lazy(async () => ({
      default: (await import('./kernel/kernel-view.js')).KernelView,
    })),
    nav: { href: '/kernel', label: 'Kernel' },
  },
  {
    path: '/evolution',
    component: lazy(() => import('./evolution/index.js')),
    nav: { href: '/evolution', label: 'Evolution' },
  },
];
