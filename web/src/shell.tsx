import { Suspense } from 'react';
import { Link, Route, Switch, useRoute } from 'wouter';
import type { LiveState } from './api/live.js';
import { useMe, useSignOut } from './session/session-context.js';
import { RoleBadge } from './ui/badges.js';
import { VIEWS } from './views/index.js';

function NavLink({ href, label }: { href: string; label: string }) {
  const [exact] = useRoute(href);
  const [nested] = useRoute(`${href}/*?`);
  const current = href === '/' ? exact : nested;
  return (
    <Link href={href} aria-current={current ? 'page' : undefined}>
      {label}
    </Link>
  );
}

/**
 * The signed-in frame: who and where, the live feed's state, the views' navigation, the view. The
 * feed is followed by the caller (from before whoami answers), so the views mount on its `ready`.
 */
export function Shell({ live }: { live: LiveState }) {
  const me = useMe();
  const signOut = useSignOut();
  return (
    <>
      <header className="top">
        <div className="who">
          <strong>{me.project}</strong>
          <span>
            {me.principal} <RoleBadge role={me.role} />
          </span>
        </div>
        <nav aria-label="Views">
          {VIEWS.filter((v) => v.nav).map((v) => (
            <NavLink key={v.path} href={v.nav!.href} label={v.nav!.label} />
          ))}
        </nav>
        <div className="live" data-live={live.status} data-seq={live.seq ?? ''}>
          <span role="status">
            {live.status === 'live'
              ? `live · journal #${live.seq}`
              : live.status === 'refused'
                ? 'live feed refused'
                : live.status === 'reconnecting'
                  ? 'reconnecting…'
                  : 'connecting…'}
          </span>
          <button type="button" className="quiet" onClick={signOut}>
            Sign out
          </button>
        </div>
      </header>
      <main id="main">
        {!live.ready ? (
          <p className="muted" aria-busy="true">
            Loading…
          </p>
        ) : (
          <Suspense
            fallback={
              <p className="muted" aria-busy="true">
                Loading…
              </p>
            }
          >
            <Switch>
              {VIEWS.map((v) => (
                <Route key={v.path} path={v.path} component={v.component} />
              ))}
              <Route>
                <h1>Not found</h1>
                <p>
                  No view here. <Link href="/">Back to the board</Link>.
                </p>
              </Route>
            </Switch>
          </Suspense>
        )}
      </main>
    </>
  );
}
