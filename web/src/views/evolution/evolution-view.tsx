import { useState } from 'react';
import { EVENT_CLASSES, EVENT_TYPES, type EventType } from '../../api/evolution.js';
import { QueryState } from '../../ui/query-state.js';
import './evolution.css';
import { EventRow } from './event-row.js';
import { Promotions } from './promotions.js';
import { useEvents, useVerifyEvents } from './queries.js';
import { verdictOf } from './verification.js';
import { VerifyPanel } from './verify-panel.js';

/** Events per page. */
const PAGE = 25;

/**
 * Evolution (issue 17): the project's qualified cognitive events newest first, by type and class,
 * each with its effective governance, signer and deliveries (a dead letter retried by an editor),
 * a verification of every event's signature and governance; and the promotions of canonry's own
 * adaptive artifacts with their stages and canary metrics.
 */
export function EvolutionView() {
  const [eventType, setEventType] = useState<EventType | null>(null);
  const [eventClass, setEventClass] = useState<string | null>(null);
  // The `before` of each page shown so far: the last is the current page (null: the newest).
  const [pages, setPages] = useState<(number | null)[]>([null]);
  const before = pages.at(-1) ?? null;
  const events = useEvents({ eventType, eventClass, before, limit: PAGE });
  const verify = useVerifyEvents();
  const refilter = (type: EventType | null, cls: string | null) => {
    setEventType(type);
    setEventClass(cls);
    setPages([null]);
  };
  return (
    <>
      <h1>Evolution</h1>
      <p className="muted lead">
        Signed qualified cognitive events made from the project's completed work, each carrying the
        intersection of its sources' governance, and where each was delivered.
      </p>
      <VerifyPanel
        run={() => verify.mutate()}
        pending={verify.isPending}
        result={verify.data}
        error={verify.error}
      />
      <section aria-labelledby="evo-events-h">
        <h2 id="evo-events-h">Events</h2>
        <form className="evo-filters" onSubmit={(e) => e.preventDefault()}>
          <label>
            Event type{' '}
            <select
              value={eventType ?? ''}
              onChange={(e) => refilter((e.target.value || null) as EventType | null, eventClass)}
            >
              <option value="">any</option>
              {EVENT_TYPES.map((t) => (
                <option key={t} value={t}>
                  {t}
                </option>
              ))}
            </select>
          </label>
          <label>
            Class{' '}
            <select
              value={eventClass ?? ''}
              onChange={(e) => refilter(eventType, e.target.value || null)}
            >
              <option value="">any</option>
              {EVENT_CLASSES.map((c) => (
                <option key={c} value={c}>
                  {c}
                </option>
              ))}
            </select>
          </label>
        </form>
        <QueryState query={events}>
          {(page) => (
            <>
              {page.events.length === 0 ? (
                <p className="muted">
                  {eventType || eventClass
                    ? 'No event matches these filters.'
                    : 'No event yet: events are made when the evolution coordinator runs (CANONRY_EVOLUTION=on).'}
                </p>
              ) : (
                <ol className="rows entries" aria-label="Events, newest first">
                  {page.events.map((row) => (
                    <EventRow
                      key={row.event_id}
                      row={row}
                      verdict={verify.data ? verdictOf(verify.data, row.event_id, row.seq) : null}
                    />
                  ))}
                </ol>
              )}
              <nav aria-label="Event pages" className="pager">
                <button
                  type="button"
                  disabled={pages.length === 1}
                  onClick={() => setPages(pages.slice(0, -1))}
                >
                  Newer
                </button>
                <button
                  type="button"
                  disabled={page.events.length < PAGE}
                  onClick={() => setPages([...pages, page.events.at(-1)!.seq])}
                >
                  Older
                </button>
              </nav>
            </>
          )}
        </QueryState>
      </section>
      <Promotions />
    </>
  );
}
