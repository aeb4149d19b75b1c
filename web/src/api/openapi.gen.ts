// Generated from canonry’s OpenAPI document by test/web/api-types.test.ts; do not edit.
// Rewrite it with `npm run web:api` when an operation changes.

export interface paths {
    "/healthz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Health: 200 when every chain verified on start; 503 (same body) while some chain is quarantined */
        get: operations["health"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/readyz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Readiness: 200 when the store answers a query; 503 STORE_UNAVAILABLE when it does not (or not within 2 s). With evolution on, whether this process's coordinator leads (holds the database's lease) or stands by */
        get: operations["ready"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/metrics": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Prometheus metrics (text exposition format): requests, latencies, verdicts by class, journal appends, commit-queue depth */
        get: operations["metrics"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/openapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** This OpenAPI 3.1 document */
        get: operations["openapi"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/validate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** TCP/AP §6: evaluate an artifact against an agentic protocol (inline or by hash); no token, rate limited per client */
        post: operations["validate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/trust": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The root and issuer certificates and the revocation list (never a private key) */
        get: operations["trust"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/protocols": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Register an agentic protocol by content hash for the token's project (201 new, 200 already registered); at most 256 KiB, 1,000 a project */
        post: operations["registerProtocol"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/protocols/{hash}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A registered agentic protocol */
        get: operations["getProtocol"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/projects/{project}/journal": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Page through a project's journal entries */
        get: operations["readJournal"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/projects/{project}/journal/verify": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Verify a project's hash chain and signed checkpoints against this server's root and revocation list, each checkpoint issuer's validity judged at `at` when given (a checkpoint carries no signing time: without `at` its window is not judged); with projections=true (owner) also compare its projections with a replay */
        get: operations["verifyJournal"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/projects/{project}/journal/{seq}/receipt": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The §7 receipt of one journal entry */
        get: operations["getReceipt"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/projects/{project}/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The project's journal live, as server-sent events: `id:` the seq, `event:` the kind (`redacted` for an entry of another principal's personal plane), `data:` a summary — never a body; a heartbeat comment every 15 s; the kernel's audit project is never served */
        get: operations["followEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/projects/{project}/messages": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The archive of the project in capture order (or newest first), a page at a time: project messages and the principal's own personal ones */
        get: operations["listMessages"];
        put?: never;
        /** Archive a message and run intake: classify it and turn each draft into a gated proposal (classify=false archives only) */
        post: operations["postMessage"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/projects/{project}/unclassified": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Archived messages never classified (model down, output refused, classify=false), in capture order a page at a time, each with its last journaled failure; personal ones only to their speaker */
        get: operations["listUnclassified"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/projects/{project}/messages/{id}/classify": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Classify an archived message again (its speaker only): the intake a re-send runs; a message already classified reports its first intake and writes nothing */
        post: operations["classifyMessage"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/projects/{project}/messages/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One archived message, exactly as captured */
        get: operations["getMessage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/projects/{project}/classifier": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The project's classifier: its kind (scripted or model), and the scripted classifier's journaled subjects */
        get: operations["getClassifier"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/projects/{project}/classifier/subjects": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Add or replace subjects of the scripted classifier (object id → title, object type, keywords, tags); journaled */
        post: operations["putSubjects"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/projects/{project}/classifier/subjects/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Remove a subject of the scripted classifier; journaled */
        delete: operations["removeSubject"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/projects/{project}/proposals": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Proposals in journal order (or newest first), a page at a time, optionally only those with one status */
        get: operations["listProposals"];
        put?: never;
        /** Propose a mutation: it is compared with current canon, gated, and committed when the gate answers AUTO_COMMIT */
        post: operations["postProposal"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/projects/{project}/proposals/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The two-note view: current vs candidate, the computed checks, and the gate verdict with its signed event, checked against this server's root and revocation list, its issuer valid now or at `at` */
        get: operations["getProposal"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/projects/{project}/proposals/{id}/approve": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Approve a pending proposal (the role the gate asked for: editor for REQUIRE_CONFIRMATION, owner for HARD_STOP); stale → 409 STALE_APPROVAL and a new comparison, after which only an approval naming the new head as base_version commits (else 409 BASE_NOT_ACKNOWLEDGED) */
        post: operations["approveProposal"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/projects/{project}/proposals/{id}/reject": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Reject a pending proposal (owner, editor, or its proposer withdrawing it) */
        post: operations["rejectProposal"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/projects/{project}/objects": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Canonical objects in id order, a page at a time, optionally only those with the given statuses */
        get: operations["listObjects"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/projects/{project}/objects/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** An object with its current version */
        get: operations["getObject"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/projects/{project}/objects/{id}/versions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** An object's immutable versions a page at a time, oldest first or newest first (restores append, never rewind) */
        get: operations["listVersions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/projects/{project}/objects/{id}/versions/{version}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One immutable version of an object, by its number or its hash, with the object's current version hash */
        get: operations["getVersion"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/projects/{project}/objects/{id}/provenance": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The provenance walk (§8): why, since when, who authorized it, sources, what it replaced, stale dependents, restorable versions */
        get: operations["getProvenance"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/projects/{project}/objects/{id}/graph": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The dependency graph around a note (§10): what it rests on, every live note resting on it however far down, and the artifacts built on them, each with its cascade state; at most `limit` nodes */
        get: operations["getObjectGraph"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/projects/{project}/objects/{id}/restore": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Restore an earlier version, named by its hash or its number, by proposing a new version with its content (gated like any proposal) */
        post: operations["restoreObject"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/projects/{project}/objects/{id}/resolve": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Resolve a dispute (LCSM §15): propose the open claim that stands, with why; gated like any proposal (an agent's waits for an editor), the other claims stay in history */
        post: operations["resolveObject"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/projects/{project}/board": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The first objects of each status the principal may read (id order), marked in or out of effect (§2), the first pending proposals and the first artifacts with their §10 states, each group with its total and whether more exist (read on with listObjects, listProposals, listArtifacts) */
        get: operations["getBoard"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/projects/{project}/artifacts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The artifacts the principal may read (§14: one citing a personal version is its holder's) in id order, a page at a time, each with its §10 state */
        get: operations["listArtifacts"];
        put?: never;
        /** Register an artifact manifest (re-registering makes a new artifact_version); an agent may not accept one */
        post: operations["registerArtifact"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/projects/{project}/artifacts/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One artifact with its §10 state and the reasons */
        get: operations["getArtifact"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/projects/{project}/artifacts/{id}/review": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Record a person's review of an artifact (owners and editors) */
        post: operations["reviewArtifact"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/projects/{project}/working-set": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Compile a scoped working set from the current canon the principal may read (nothing superseded, nothing out of effect) with its prompt capsule and token count; writes nothing */
        post: operations["compileWorkingSet"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/projects/{project}/validate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Evaluate an artifact against an agentic protocol (inline, a registered hash, or `in-force:<slug>` for the version a promotion put in force here), as TCP/AP §6: answers its envelope (CONFORMANT with the signed event, or the verdict that refused it) */
        post: operations["validateArtifact"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/projects/{project}/verify": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Verify a signed conformance event against this server's root and revocation list, its issuer valid now or at `at`, and the artifact, protocol and metadata hash it should bind (TCP/AP §7); writes nothing */
        post: operations["verifyEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/projects/{project}/relay/sessions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The project's relay sessions, newest first, with where each stands */
        get: operations["listRelaySessions"];
        put?: never;
        /** Start a relay session: the mode, the objective and what it must get through (sections, sub-tasks, questions); its windows are then prepared and completed one by one */
        post: operations["startRelaySession"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/projects/{project}/relay/sessions/{session}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A relay session: where it stands, its latest CSO and the goal of its next window */
        get: operations["getRelaySession"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/projects/{project}/relay/sessions/{session}/prepare": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** What to send the model for the session's next window: a work window or a revision window (§6.2), its goal, the CSO slice it needs and the prompt; writes nothing */
        post: operations["prepareRelayWindow"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/projects/{project}/relay/sessions/{session}/windows": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A session's completed windows in order: each CSO, its verification and revisions */
        get: operations["listRelayWindows"];
        put?: never;
        /** Complete the session's next window with the model's text and its contribution: merge, verify and repair (§5), invalidate (§3), revise or escalate (§6), seal and commit; the CRP-Relay-* headers say what happened */
        post: operations["completeRelayWindow"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/projects/{project}/relay/sessions/{session}/quality": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A session's quality history, one row per window: preservation and repairs (CRP-030 §5), the DPE's claims, fabrications, distortions, repetition, completeness, grounding and flow, session IQ and the IAP the next window carries (CRP-018) */
        get: operations["getRelayQuality"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/projects/{project}/relay/sessions/{session}/verify": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Check a session's HMAC chain and every window's CSO against the journal; names the first window that breaks */
        get: operations["verifyRelaySession"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/projects/{project}/evolution/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The project's qualified cognitive events in journal order (or newest first), by type or class */
        get: operations["listEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/projects/{project}/evolution/events/{event}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One stored event: the signed event, its origin, its sources and its deliveries */
        get: operations["getEvent"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/projects/{project}/evolution/verify": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Verify the project's stored events, a page at a time in journal order: schema, policy hash, signature from the server's root (its issuer valid now or at `at`), governance against its sources */
        get: operations["verifyEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/projects/{project}/evolution/dead-letters": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Deliveries whose attempts ran out, oldest first */
        get: operations["listDeadLetters"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/projects/{project}/evolution/dead-letters/{event}/{target}/retry": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Dispatch a dead-lettered event to its target again; answers the new delivery */
        post: operations["retryDeadLetter"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/projects/{project}/evolution/feedback": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Feedback on the project's work (a score in [0, 1]; with remember, what canon should hold — proposed, never committed directly) */
        post: operations["giveFeedback"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/projects/{project}/evolution/promotions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The project's promotions of adaptive artifacts, in the order they were proposed, each at its stage (a page; without the artifacts, which one promotion's read carries) */
        get: operations["listPromotions"];
        put?: never;
        /** Start a candidate: proposed, then (unless advance is false) replay-validated, checked, published signed and content-addressed, and opened to its canary — or stopped where it fails */
        post: operations["startPromotion"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/projects/{project}/evolution/promotions/{promotion}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One promotion: its candidate, stage, publication, canary arms and every step taken */
        get: operations["getPromotion"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/projects/{project}/evolution/promotions/{promotion}/advance": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Take a promotion started with advance false (or stopped between steps) on as far as it goes: replay-validated, checked, published and opened to its canary — or stopped where it fails */
        post: operations["advancePromotion"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/projects/{project}/evolution/promotions/{promotion}/observations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Record the metric over some sessions of the canary or of the baseline (at most the promotion's max_observation_samples in one report); once both hold the minimum sample in min_observations reports the canary rolls back (below the baseline by more than the margin) or is promoted, on its own */
        post: operations["observePromotion"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/projects/{project}/evolution/promotions/{promotion}/promote": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Promote a canary by hand, before its metric decides (an owner's call) */
        post: operations["promotePromotion"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/projects/{project}/evolution/promotions/{promotion}/rollback": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Roll back a published, canary or promoted artifact by hand (an owner's call); appended, so what was promoted stays on the record */
        post: operations["rollBackPromotion"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/projects/{project}/evolution/admissions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The projects whose promotions may reach this one (admitted) or no longer may (withdrawn), by name, a page at a time */
        get: operations["listAdmissions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/projects/{project}/evolution/admissions/{from}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Admit promotions of another project into this one: from now on a canary (and what it promotes) that names this project reaches its new sessions and proposals (the owner's call) */
        put: operations["admitPromotions"];
        post?: never;
        /** Withdraw the admission: that project's promotions no longer reach new sessions or proposals here (sessions already started keep their arm; the owner's call) */
        delete: operations["withdrawAdmission"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/projects/{project}/whoami": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Who the bearer token stands for: its project, principal and role — what a face needs to offer only the controls the role allows */
        get: operations["whoami"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/projects/{project}/tokens": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The tokens of this project (descriptions, never secrets) in creation order, a page at a time */
        get: operations["listTokens"];
        put?: never;
        /** Issue a token for a principal and role in this project; the secret is shown only here */
        post: operations["createToken"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/projects/{project}/tokens/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Revoke a live token of this project */
        delete: operations["revokeToken"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        Error: {
            error: {
                /** @enum {unknown} */
                code: "INVALID_REQUEST" | "INTERPRETATION_DRIFT" | "MALFORMED_BODY" | "INVALID_BODY" | "NESTING_TOO_DEEP" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "NOT_ACCEPTABLE" | "NOT_FOUND" | "MALFORMED_REQUEST" | "REQUEST_TIMEOUT" | "HEADERS_TOO_LARGE" | "METHOD_NOT_ALLOWED" | "RATE_LIMITED" | "EVENT_STREAMS_FULL" | "EVALUATOR_UNAVAILABLE" | "SHUTTING_DOWN" | "NOT_CANONICALIZABLE" | "INVALID_HASH" | "INVALID_PROTOCOL" | "UNKNOWN_PROTOCOL" | "QUOTA_EXCEEDED" | "INVALID_SWITCHBOARD" | "INVALID_POLICY" | "KEYRING_MISSING" | "KEYRING_EXISTS" | "KEYRING_CORRUPT" | "UNKNOWN_ISSUER" | "INVALID_EVENT" | "SIGNATURE_INVALID" | "CHAIN_INVALID" | "ISSUER_REVOKED" | "HASH_MISMATCH" | "INVALID_CERTIFICATE" | "KEYRING_MISMATCH" | "INVALID_CSR" | "ROOT_KEY_OFFLINE" | "DEVELOPMENT_ROOT" | "NO_ACTIVE_ISSUER" | "PENDING_KEY_MISMATCH" | "STALE_REVOCATION_LIST" | "STORE_CORRUPT" | "STORE_BUSY" | "STORE_UNAVAILABLE" | "STORE_FULL" | "STORE_MISMATCH" | "STORE_IN_USE" | "UNSUPPORTED_STORE" | "INVALID_BACKUP" | "SCHEMA_TOO_NEW" | "CONFLICT" | "INVALID_PROJECT" | "UNKNOWN_PROJECT" | "INVALID_ENTRY" | "UNKNOWN_ENTRY_KIND" | "ENTRY_BODY_INVALID" | "CHAIN_BROKEN" | "INVALID_CHECKPOINT" | "INVALID_SEGMENT" | "MODEL_UNAVAILABLE" | "MODEL_BUSY" | "MODEL_OUTPUT_INVALID" | "UNAUTHENTICATED" | "FORBIDDEN" | "UNKNOWN_TOKEN" | "AUTHORITY_FROM_PAYLOAD" | "INVALID_PROPOSAL" | "UNKNOWN_OBJECT" | "UNKNOWN_SESSION" | "SESSION_CLOSED" | "UNKNOWN_PROPOSAL" | "UNKNOWN_MESSAGE" | "UNKNOWN_VERSION" | "UNKNOWN_CLAIM" | "PROPOSAL_CLOSED" | "STALE_APPROVAL" | "BASE_NOT_ACKNOWLEDGED" | "SOURCE_MISSING" | "PLANE_VIOLATION" | "DEPENDENCY_CYCLE" | "GATE_REFUSED" | "BATCH_HELD" | "CLASSIFIER_FAILED" | "INVALID_ARTIFACT" | "UNKNOWN_ARTIFACT" | "UNKNOWN_SUBJECT" | "INVALID_QUALIFIED_EVENT" | "UNSUPPORTED_SCHEMA_VERSION" | "EVENT_UNSIGNED" | "POLICY_HASH_MISMATCH" | "INVALID_ASSET" | "GOVERNANCE_EMPTY" | "GOVERNANCE_CONTRADICTORY" | "GOVERNANCE_UNREPRESENTABLE" | "GOVERNANCE_UNENFORCEABLE" | "GOVERNANCE_FORBIDS" | "GOVERNANCE_WIDENED" | "SOURCE_POLICY_MISMATCH" | "DECLASSIFICATION_UNAUTHORIZED" | "UNKNOWN_EVENT" | "UNKNOWN_TARGET" | "UNKNOWN_DEAD_LETTER" | "TARGET_UNAVAILABLE" | "EVOLUTION_OFF" | "REPLAY_UNAVAILABLE" | "REPLAY_INPUT_MISSING" | "INVALID_PROMOTION" | "UNKNOWN_PROMOTION" | "PROMOTION_ILLEGAL_TRANSITION" | "PROMOTION_FINISHED" | "PUBLICATION_INVALID" | "ADDRESS_UNAVAILABLE" | "SERVER_UNREACHABLE" | "INVALID_ARGUMENT" | "FILE_UNREADABLE" | "MALFORMED_FILE" | "INTERNAL";
                message: string;
                details?: Record<string, never>;
            };
        };
        ValidateEnvelope: {
            /** @enum {unknown} */
            status: "EVALUATED" | "REJECTED";
            data: {
                conformant: boolean;
                label: string | null;
            };
            error: null | {
                failure_code: string;
                message: string;
            };
            /** @description the signed conformance event (conformant verdicts only), else null */
            attestation: null | Record<string, never>;
        };
        Principal: {
            id: string;
            project: string;
            /** @enum {unknown} */
            role: "owner" | "editor" | "agent" | "tool" | "viewer";
        };
        SourceRef: {
            message_id: string;
            span: number[];
            quote: string;
        };
        NoteContent: {
            /** @enum {unknown} */
            object_type: "constraint" | "decision" | "fact" | "preference" | "plan" | "question" | "policy" | "permission" | "artifact_ref" | "dependency" | "dispute" | "instruction" | "uncertainty";
            title: string;
            text: string;
            shape?: unknown;
            /**
             * @default asserted
             * @enum {unknown}
             */
            confidence_state: "uncertain" | "inferred" | "asserted" | "sourced" | "verified";
            /**
             * @default active
             * @enum {unknown}
             */
            status: "active" | "provisional" | "disputed" | "superseded" | "retired";
            /**
             * @description LCSM §14 plane: personal is its proposer's alone; project, working and procedural are shared. Left out, an existing object keeps its own
             * @default project
             * @enum {unknown}
             */
            visibility: "project" | "personal" | "working" | "procedural";
            sources?: components["schemas"]["SourceRef"][];
            /** @description what the note rests on: an object id (pinned to its current version when the proposal is made) or { object_id, version_hash }, the exact version it was made against. Stored as ids, with the pins in dependency_versions */
            dependency_refs?: (string | components["schemas"]["DependencyPin"])[];
            /** @description the exact version of each dependency the note was made against (set by canon; versions committed before pins existed lack it) */
            readonly dependency_versions?: components["schemas"]["DependencyPin"][];
            /** @description a date (2026-01-31) or a date-time with offset */
            effective_from?: string | null;
            effective_until?: string | null;
            tags?: string[];
        };
        CheckResult: {
            result: boolean;
            detail: string;
            items?: string[];
        };
        ComparisonChecks: {
            information_removed?: components["schemas"]["CheckResult"];
            source_or_authority_change?: components["schemas"]["CheckResult"];
            certainty_raised_without_evidence?: components["schemas"]["CheckResult"];
            suggestion_to_directive?: components["schemas"]["CheckResult"];
            dispute_collapsed?: components["schemas"]["CheckResult"];
            dependents_made_stale?: components["schemas"]["CheckResult"];
            reversible?: components["schemas"]["CheckResult"];
            within_authority?: components["schemas"]["CheckResult"];
        };
        NoteSide: {
            version_hash?: string | null;
            content?: components["schemas"]["NoteContent"] | null;
            authority?: {
                principal?: string;
                role?: string;
            } | null;
        };
        GateVerdict: {
            /** @enum {unknown} */
            label: "AUTO_COMMIT" | "REQUIRE_CONFIRMATION" | "HARD_STOP" | "REJECT";
            protocol_hash: string;
            input_hash: string;
            /** @description the signed TCP/AP conformance event */
            event: Record<string, never> | null;
            event_hash: string | null;
        };
        ProposalRecord: {
            proposal_id: string;
            object_id: string;
            /** @enum {unknown} */
            intent: "create" | "update" | "supersede" | "retire" | "restore" | "dispute" | "resolve";
            base_version?: string | null;
            candidate?: components["schemas"]["NoteContent"];
            supersedes?: string[];
            restore_version?: string | null;
            message_id?: string | null;
            rationale?: string | null;
            classifier?: string | null;
            proposer: components["schemas"]["Principal"];
            comparison: {
                current: components["schemas"]["NoteSide"];
                candidate: components["schemas"]["NoteSide"];
                checks: components["schemas"]["ComparisonChecks"];
                /** @enum {unknown} */
                stakes: "S0" | "S1" | "S2" | "S3";
            };
            gate: components["schemas"]["GateVerdict"];
            /** @description who must approve it now; null unless it is pending and held back */
            required_role?: ("owner" | "editor" | "agent" | "tool" | "viewer") | null;
            /** @description the role the gate asked to approve it, kept after it closes */
            approval_role?: ("owner" | "editor" | "agent" | "tool" | "viewer") | null;
            /** @description after canon moved and it was compared again: the base_version an approval must name */
            approval_requires_base?: string | null;
            /** @enum {unknown} */
            status: "pending" | "committed" | "rejected";
            decided_by?: components["schemas"]["Principal"] | null;
            reason?: string | null;
            /** @description dispute: the competing claim (the candidate keeps the disputed statement, status disputed) */
            claim?: {
                statement: string;
                sources: components["schemas"]["SourceRef"][];
                /** @enum {unknown} */
                confidence_state: "uncertain" | "inferred" | "asserted" | "sourced" | "verified";
            };
            /** @description resolve: the claim that stands */
            claim_id?: string;
            seq?: number;
        };
        ProposalOutcome: {
            proposal: components["schemas"]["ProposalRecord"];
            committed: components["schemas"]["NoteVersion"] | null;
            receipt: components["schemas"]["Receipt"];
        };
        ProposalView: {
            proposal_id: string;
            object_id: string;
            intent?: string;
            /** @enum {unknown} */
            status: "pending" | "committed" | "rejected";
            proposer?: components["schemas"]["Principal"];
            /** @description who must approve it now; null unless it is pending and held back */
            required_role?: ("owner" | "editor" | "agent" | "tool" | "viewer") | null;
            /** @description the role the gate asked to approve it, kept after it closes */
            approval_role?: ("owner" | "editor" | "agent" | "tool" | "viewer") | null;
            /** @description who approved it, when it committed on an approval */
            approved_by?: components["schemas"]["Principal"] | null;
            /** @description set after a re-comparison: approve with this base_version, having read current (what it would now overwrite) */
            approval_requires_base?: string | null;
            decided_by?: components["schemas"]["Principal"] | null;
            reason?: string | null;
            rationale?: string | null;
            message_id?: string | null;
            classifier?: string | null;
            base_version?: string | null;
            current_version_now?: string | null;
            /** @description canon moved since the comparison */
            stale?: boolean;
            current: components["schemas"]["NoteSide"];
            candidate: components["schemas"]["NoteSide"];
            claim?: {
                statement: string;
                sources: components["schemas"]["SourceRef"][];
                /** @enum {unknown} */
                confidence_state: "uncertain" | "inferred" | "asserted" | "sourced" | "verified";
            } | null;
            claim_id?: string | null;
            /** @enum {unknown} */
            stakes: "S0" | "S1" | "S2" | "S3";
            checks: components["schemas"]["ComparisonChecks"];
            gate: components["schemas"]["GateVerdict"] & {
                verification?: {
                    ok?: boolean;
                    /** @description why it does not verify: the kernel code (CHAIN_INVALID, ISSUER_REVOKED, …), HASH_MISMATCH, or ISSUER_EXPIRED (it verifies at valid_at, when the proposal was recorded: ask with at) */
                    issue?: string | null;
                    /**
                     * Format: date-time
                     * @description with ISSUER_EXPIRED: an instant at which the verdict verifies
                     */
                    valid_at?: string;
                };
            };
        };
        NoteVersion: {
            note_id: string;
            version_id: number;
            parent_version_hash: string | null;
            content: components["schemas"]["NoteContent"];
            shape?: unknown;
            sources?: components["schemas"]["SourceRef"][];
            actor: string;
            authority: Record<string, never>;
            /** Format: date-time */
            timestamp?: string;
            receipt_ref?: string;
            version_hash: string;
            /** @description the competing claims while disputed (LCSM §15) */
            claims?: components["schemas"]["Claim"][];
            resolution?: components["schemas"]["DisputeResolution"];
        };
        /** @description one competing statement of a disputed object (LCSM §15), listed once */
        Claim: {
            claim_id: string;
            statement: string;
            /**
             * @description open while disputed; stands or set_aside once resolved; collapsed when settled without a resolution
             * @enum {unknown}
             */
            state: "open" | "stands" | "set_aside" | "collapsed";
            /** @description the version that opened this dispute */
            opened_in: number;
            holders: components["schemas"]["ClaimHolder"][];
        };
        ClaimHolder: {
            principal: {
                id: string;
                /** @enum {unknown} */
                role: "owner" | "editor" | "agent" | "tool" | "viewer";
            };
            approver: {
                id: string;
                /** @enum {unknown} */
                role: "owner" | "editor" | "agent" | "tool" | "viewer";
            } | null;
            /** @enum {unknown} */
            confidence_state?: "uncertain" | "inferred" | "asserted" | "sourced" | "verified";
            sources: components["schemas"]["SourceRef"][];
            gate: string | null;
            gate_event?: string | null;
            proposal_id?: string | null;
            /** @description the version that recorded this holder */
            version_id: number;
            receipt_ref: string | null;
        };
        DisputeResolution: {
            claim_id: string;
            statement: string;
            rationale: string;
            set_aside: string[];
        };
        CanonObject: {
            object_id: string;
            /** @enum {unknown} */
            object_type: "constraint" | "decision" | "fact" | "preference" | "plan" | "question" | "policy" | "permission" | "artifact_ref" | "dependency" | "dispute" | "instruction" | "uncertainty";
            /** @constant */
            schema_version?: 1;
            current_version_ref: string;
            version_id: number;
            authority_basis?: Record<string, never>;
            /** @enum {unknown} */
            confidence_state?: "uncertain" | "inferred" | "asserted" | "sourced" | "verified";
            /** @enum {unknown} */
            visibility?: "project" | "personal" | "working" | "procedural";
            source_refs?: components["schemas"]["SourceRef"][];
            dependency_refs?: string[];
            created_at?: string;
            effective_from?: string | null;
            effective_until?: string | null;
            /** @enum {unknown} */
            status: "active" | "provisional" | "disputed" | "superseded" | "retired";
            title?: string;
            text: string;
            superseded_by?: string | null;
        };
        /**
         * @description the object against its effective window [effective_from, effective_until) at the server clock (LCSM §2); only in_effect is current canon
         * @enum {unknown}
         */
        EffectiveState: "in_effect" | "expired" | "not_yet_effective";
        BoardObject: components["schemas"]["CanonObject"] & {
            effective: components["schemas"]["EffectiveState"];
            /** @description a disputed object's open claims */
            claims?: components["schemas"]["Claim"][];
            dependency_state: components["schemas"]["DependencyState"] | null;
        };
        DependencyPin: {
            object_id: string;
            version_hash: string;
        };
        /** @description what a cascade left on a dependent when something it rests on moved (LCSM §10, CRP-030 §3); a new version of it made against current canon clears it */
        DependencyState: {
            id: string;
            /** @enum {unknown} */
            kind: "note" | "artifact";
            depth: number;
            /** @enum {unknown} */
            state: "needs_revision" | "possibly_stale" | "definitely_stale" | "requires_regeneration" | "requires_human_review";
            /** @description e.g. "storage.engine moved v1 → v2 (through decision.db)" */
            cause: string;
            /** @description the object that moved, then each dependent down to this one */
            path: string[];
        };
        Receipt: {
            receipt_id: string;
            request_ref?: string;
            prior_state_ref?: {
                seq?: number;
                hash?: string;
            };
            result_state_ref?: {
                seq?: number;
                hash?: string;
            };
            checks: {
                name?: string;
                result?: string;
                detail?: string;
            }[];
            warnings?: string[];
            uncertainty?: string | null;
            affected_dependents?: (string | {
                id: string;
                /** @enum {unknown} */
                kind: "note" | "artifact";
                depth: number;
                state: string;
                cause: string;
            })[];
            rollback_route?: string;
            /** @enum {unknown} */
            acceptance_state: "accepted" | "provisional" | "rejected";
            hash_chain_parent?: string;
            receipt_hash: string;
        };
        ArchivedMessage: {
            message_id: string;
            project?: string;
            text: string;
            /** @enum {unknown} */
            role: "user" | "assistant" | "agent" | "tool" | "system";
            actor: string;
            /** @enum {unknown} */
            actor_role: "owner" | "editor" | "agent" | "tool" | "viewer";
            captured_at?: string;
            /**
             * @description personal: only its actor reads or cites it (LCSM §14)
             * @enum {unknown}
             */
            visibility: "project" | "personal";
            seq: number;
        };
        Classification: {
            outcome: string;
            touched: string[];
            drafts: Record<string, never>[];
            rationale: string;
            classifier: string;
        };
        UnclassifiedMessage: {
            message: components["schemas"]["ArchivedMessage"];
            failure: {
                message_id: string;
                /** @enum {unknown} */
                code: "MODEL_UNAVAILABLE" | "MODEL_BUSY" | "CLASSIFIER_FAILED";
                detail: string;
                issues: string[];
                classifier: string;
                at: string;
                seq: number;
                attempts: number;
            } | null;
        };
        ClassifierView: {
            /** @enum {unknown} */
            kind: "scripted" | "model";
            model: string | null;
            subjects: number;
            /** @enum {unknown} */
            source: "default" | "api" | "file";
            seq: number | null;
            /** @description the scripted classifier configuration (subjects, rules, derive_ids) */
            config: Record<string, never>;
        };
        ArtifactManifest: {
            artifact_id: string;
            title?: string;
            input_refs?: string[];
            canonical_note_versions: {
                object_id: string;
                version_hash: string;
            }[];
            tool_or_model_refs?: string[];
            output_digest: string;
            verification_refs?: string[];
            /** @enum {unknown} */
            acceptance_state: "proposed" | "accepted" | "rejected";
            artifact_version: number;
        };
        ArtifactStatus: {
            manifest: components["schemas"]["ArtifactManifest"];
            /** @enum {unknown} */
            state: "current" | "possibly_stale" | "definitely_stale" | "unaffected" | "requires_regeneration" | "requires_human_review";
            reasons: string[];
        };
        WorkingNote: {
            object_id?: string;
            object_type?: string;
            version_id?: number;
            status?: string;
            confidence?: string;
            title?: string;
            text?: string;
            authority?: string;
            sources?: components["schemas"]["SourceRef"][];
        };
        WorkingSet: {
            project: string;
            objective?: string | null;
            notes: components["schemas"]["WorkingNote"][];
            policies?: components["schemas"]["WorkingNote"][];
            dependencies?: components["schemas"]["WorkingNote"][];
            prior_mutations?: Record<string, never>[];
            contradictions?: Record<string, never>[];
            uncertainty?: components["schemas"]["WorkingNote"][];
            /** @description disputed objects, each once with its competing claims and who holds which; none is current canon (LCSM §15) */
            disputes: {
                object_id: string;
                object_type: string;
                version_id: number;
                title: string;
                claims: {
                    claim_id: string | null;
                    statement: string;
                    held_by: {
                        principal: string;
                        role: string;
                        confidence_state: string;
                        sources: components["schemas"]["SourceRef"][];
                    }[];
                }[];
            }[];
            artifacts?: Record<string, never>[];
            /** @description superseded or retired objects left out */
            excluded: number;
            /** @description objects left out because their window has ended */
            expired: number;
            /** @description objects left out because their window has not begun */
            not_yet_effective: number;
            /** @description notes of the set that depend on an object out of effect */
            lapsed_dependencies: {
                object_id: string;
                depends_on: string;
                /** @enum {unknown} */
                effective: "expired" | "not_yet_effective";
                since: string;
            }[];
            /** @description notes of the set that rest on something that moved: taken out of notes, policies, dependencies and uncertainty, never shown as current canon */
            needs_revision: (components["schemas"]["WorkingNote"] & {
                cause: string;
                depth: number;
                path: string[];
            })[];
            /** @description the prompt capsule a model reads instead of the transcript */
            capsule: string;
            /** @description tokens in the capsule */
            tokens: number;
        };
        Provenance: {
            object: components["schemas"]["CanonObject"];
            effective: components["schemas"]["EffectiveState"];
            depends_on: {
                object_id: string;
                /** @enum {unknown} */
                status: "active" | "provisional" | "disputed" | "superseded" | "retired" | "unknown";
                effective: components["schemas"]["EffectiveState"] | null;
            }[];
            dependency_state?: components["schemas"]["DependencyState"] | null;
            made_against?: components["schemas"]["DependencyPin"][];
            why: {
                statement?: string;
                confidence?: string;
                sources?: Record<string, never>[];
            };
            current_since: {
                version_id?: number;
                timestamp?: string;
                receipt_ref?: string;
                receipt?: components["schemas"]["Receipt"] | null;
            };
            authorized_by: {
                proposer?: Record<string, never> | null;
                approver?: Record<string, never> | null;
                gate?: string | null;
                stakes?: string | null;
                gate_event?: string | null;
                gate_protocol?: string | null;
            };
            replaced: {
                previous_version?: components["schemas"]["NoteVersion"] | null;
                superseded_objects?: components["schemas"]["CanonObject"][];
            };
            built_from_old: {
                artifact_id?: string;
                version_id?: number;
            }[];
            stale_if_changed: {
                artifacts: components["schemas"]["ArtifactStatus"][];
                objects: string[];
                /** @description more notes or artifacts rest on it than listed (100 of each, in id order; built_from_old is of those artifacts): getObjectGraph reads on */
                cut: boolean;
            };
            /** @description the versions of history but the current one: restore appends a copy */
            restorable: {
                version_id?: number;
                version_hash?: string;
                timestamp?: string;
                text?: string;
            }[];
            /** @enum {unknown} */
            epistemic: "fact" | "preference" | "policy" | "decision" | "inference" | "uncertainty" | "dispute" | "other";
            /** @description every claim its disputes have held, settled ones included */
            claims: components["schemas"]["Claim"][];
            resolution: components["schemas"]["DisputeResolution"] | null;
            /** @description its latest versions, at most 50, oldest first (listVersions pages every one) */
            history: components["schemas"]["NoteVersion"][];
            /** @description how many versions it has that the caller may read (more than history when long) */
            versions: number;
        };
        NoteGraph: {
            project: string;
            object_id: string;
            limit: number;
            nodes: ({
                /** @constant */
                kind: "note";
                /** @description `note:<object_id>` */
                id: string;
                object_id: string;
                object_type: string;
                /** @enum {unknown} */
                status: "active" | "provisional" | "disputed" | "superseded" | "retired";
                title: string;
                dependency_state: components["schemas"]["DependencyState"] | null;
                focus: boolean;
            } | {
                /** @constant */
                kind: "unknown";
                id: string;
                object_id: string;
            } | {
                /** @constant */
                kind: "artifact";
                /** @description `artifact:<artifact_id>` */
                id: string;
                artifact: components["schemas"]["ArtifactStatus"];
            })[];
            /** @description from what moves to what rests on it, by node id */
            edges: {
                from: string;
                to: string;
            }[];
            /** @description dependents found but not drawn (a floor: each note reads at most limit + 1 dependents) */
            omitted: number;
            /** @description dependents were left out, or a note has more than were read */
            truncated: boolean;
        };
        TokenInfo: {
            token_id: string;
            project: string;
            principal: string;
            /** @enum {unknown} */
            role: "owner" | "editor" | "agent" | "tool" | "viewer";
            created_at: string;
            revoked_at: string | null;
        };
        RelaySession: {
            session_id: string;
            project: string;
            /** @enum {unknown} */
            mode: "DOCUMENT" | "CONVERSATION" | "TOOL" | "AGENTIC";
            objective: string;
            remaining: string[];
            success_test?: string | null;
            /** @description the agent principal its state is committed as */
            agent: string;
            started_by?: string;
            max_revisions?: number;
            /** @enum {unknown} */
            on_unverified?: "regenerate" | "halt";
            /** @description window 1's prior_cso_hash */
            genesis: string;
            created_at?: string;
            air?: {
                mode: string;
                iap_budget: number;
            };
            /** @description the promotion of AIR settings the session runs under, when its settings came from one */
            promotion?: {
                promotion_id: string;
                /** @description the promotion's own project (its observations go there) */
                project: string;
                /** @enum {unknown} */
                arm: "canary" | "baseline" | "promoted";
                /** @description sha256 of the AIR settings the session runs */
                address: string;
            };
        };
        RelaySessionView: {
            session: components["schemas"]["RelaySession"];
            /** @enum {unknown} */
            status: "active" | "complete" | "halted";
            windows: number;
            cso: Record<string, never> | null;
            /** @description the goal of the next window (§4.2) */
            goal_state: Record<string, never>;
        };
        RelaySessionSummary: {
            session: components["schemas"]["RelaySession"];
            /** @enum {unknown} */
            status: "active" | "complete" | "halted";
            windows: number;
        };
        RelayPreparedWindow: {
            session_id: string;
            window_number: number;
            /**
             * @description work toward the goal, or a §6.2 revision of one decision
             * @enum {unknown}
             */
            kind: "work" | "revision";
            revision_target?: string | null;
            /** @description the goal, re-anchored (§4) */
            goal_state: Record<string, never>;
            /** @description the facts, decisions, constraints and questions the window is given (§7.2) */
            slice?: Record<string, never>;
            /** @description what to send the model */
            messages: {
                role: string;
                content: string;
            }[];
            /** @description sha256 of the canonical JSON of messages (the context packet): hand it back when completing the window, and it is journaled for replay */
            context_packet_hash?: string;
            /** @description token counts of the prompt */
            tokens?: Record<string, never>;
            /** @description slice items left out to hold the token budget */
            dropped?: Record<string, never>;
            over_budget?: boolean;
        };
        RelayCompletedWindow: {
            /**
             * @description relayed: verified and committed; regenerate: not verified, nothing journaled; halted: the session stopped (§5.2)
             * @enum {unknown}
             */
            status: "relayed" | "regenerate" | "halted";
            session_id: string;
            window_number: number;
            /**
             * @description work toward the goal, or a §6.2 revision of one decision
             * @enum {unknown}
             */
            kind: "work" | "revision";
            cso: Record<string, never> | null;
            /** @description preservation (valid prior facts kept / valid prior facts), repaired ids, uncaptured claims, broken dependencies, verified (§5) */
            verification: Record<string, never>;
            revisions: {
                target: string;
                revised_by: string | null;
                new_fact: string | null;
                count: number;
                escalation: Record<string, never> | null;
            }[];
            /** @description the CRP-Relay-* headers of the window (§5.3, §6.4, §10) */
            headers: {
                [key: string]: string;
            };
        };
        RelayWindow: {
            session_id: string;
            window_number: number;
            /**
             * @description work toward the goal, or a §6.2 revision of one decision
             * @enum {unknown}
             */
            kind: "work" | "revision";
            revision_target?: string | null;
            /** @description the sealed Cognitive State Object (CRP-030 §2.1, CSO schema v1) */
            cso: Record<string, never>;
            remaining?: string[];
            /** @description preservation (valid prior facts kept / valid prior facts), repaired ids, uncaptured claims, broken dependencies, verified (§5) */
            verification: Record<string, never>;
            invalidations?: Record<string, never>[];
            revisions: {
                target: string;
                revised_by: string | null;
                new_fact: string | null;
                count: number;
                escalation: Record<string, never> | null;
            }[];
            output?: {
                text: string;
                hash: string;
                model: string | null;
            };
            /** @description the CRP-Relay-* headers of the window (§5.3, §6.4, §10) */
            headers: {
                [key: string]: string;
            };
        };
        RelayChainReport: {
            session_id: string;
            ok: boolean;
            windows: number;
            broken: {
                window_number: number;
                /** @enum {unknown} */
                reason: "hmac" | "link" | "numbering" | "schema" | "projection";
                detail: string;
            } | null;
        };
        RelayContribution: {
            facts?: {
                fact_id?: string | null;
                statement: string;
                /** @enum {string|null} */
                provenance?: "CKF" | "TOOL" | "CONVERSATION" | "DERIVED" | "USER" | null;
                provenance_ref?: string | null;
                confidence?: number | null;
                supersedes?: string[];
            }[];
            decisions?: {
                decision_id?: string | null;
                choice: string;
                rationale: string;
                alternatives?: string[];
                depends_on?: string[];
                revisable?: boolean | null;
                /** @enum {string|null} */
                provenance?: "CKF" | "TOOL" | "CONVERSATION" | "DERIVED" | "USER" | null;
                provenance_ref?: string | null;
                revises?: string | null;
            }[];
            open_questions?: string[];
            resolved_questions?: string[];
            constraints?: string[];
            completed?: string[];
            invalidates?: string[];
            tool_results?: {
                scratch_id: string;
                tool: string;
                result_hash: string;
                summary: string;
            }[];
        };
        RelayWindowQuality: {
            window_number: number;
            /** @enum {unknown} */
            kind: "work" | "revision";
            revision_target: string | null;
            /** @description valid prior facts kept / valid prior facts, before repair (CRP-030 §5) */
            preservation: number;
            /** @description prior facts verification re-injected */
            repaired: number;
            /** @description claims the DPE found in the window's text */
            claims: number | null;
            /** @description claims asserting a specific value the context does not hold (CRP-018 §1) */
            fabrication_count: number | null;
            /** @description claims that contradict a context fact */
            distortion_count: number | null;
            /** @description repeated 6-grams / 6-grams of the window (CRP-018 §1) */
            repetition_ratio: number | null;
            /** @description the window's coverage of what it was meant to cover, 0–1 */
            completeness: number | null;
            /** @description context-grounded claims / claims */
            grounding_pct: number | null;
            /** @description how well the window's sentences connect, 0–1 */
            flow_score: number | null;
            /** @description the DPE's one score for the window, 0–1 */
            quality: number | null;
            /** @description session IQ after this window, 0–100 (CRP-018 §5.2) */
            session_iq: number | null;
            air: {
                mode: string;
                judge: string;
                /** @description the IAP built from this window (CRP-018 §2.3) and its two extras */
                packet: Record<string, never> | null;
                /** @description the text the next window's prompt carries (null: nothing injected) */
                injection: string | null;
                tokens: number;
            } | null;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    health: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        ok: boolean;
                        store: string;
                        journal: {
                            broken: {
                                project: string;
                                seq: number;
                                reason: string;
                                detail?: string;
                            }[];
                            unsigned: number;
                        };
                        trust: {
                            root_fingerprint: string;
                            development: boolean;
                        };
                    };
                };
            };
        };
    };
    ready: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        ok: boolean;
                        store: string;
                        evolution?: {
                            /** @enum {unknown} */
                            role: "leading" | "standby" | "stopped";
                            holder: string | null;
                            lease_holder: string | null;
                        };
                    };
                };
            };
            /** @description STORE_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    metrics: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": string;
                };
            };
        };
    };
    openapi: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
        };
    };
    validate: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description the artifact to evaluate (any JSON value) */
                    artifact: unknown;
                    /** @description the protocol inline, or the content hash of a registered one */
                    agentic_protocol: Record<string, never> | string;
                    generation_metadata_hash: string;
                };
            };
        };
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidateEnvelope"];
                };
            };
            /** @description INVALID_BODY, INVALID_HASH, INVALID_PROTOCOL, INVALID_REQUEST, MALFORMED_BODY, NESTING_TOO_DEEP */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidateEnvelope"];
                };
            };
            /** @description UNKNOWN_PROTOCOL */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidateEnvelope"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidateEnvelope"];
                };
            };
            /** @description UNSUPPORTED_MEDIA_TYPE */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidateEnvelope"];
                };
            };
            /** @description INTERPRETATION_DRIFT */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidateEnvelope"];
                };
            };
            /** @description RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidateEnvelope"];
                };
            };
            /** @description EVALUATOR_UNAVAILABLE */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidateEnvelope"];
                };
            };
        };
    };
    trust: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        root: string;
                        root_fingerprint?: string;
                        /** @description true for a root whose key lives on the server: not production-grade attestation (TCP/AP §10) */
                        development_root: boolean;
                        issuers: Record<string, never>[];
                        revocation_list: string;
                    };
                };
            };
        };
    };
    registerProtocol: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": Record<string, never>;
            };
        };
        responses: {
            /** @description success */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        hash: string;
                        slug?: string;
                        version?: string;
                        labels?: string[];
                    };
                };
            };
            /** @description AUTHORITY_FROM_PAYLOAD, INVALID_ARGUMENT, INVALID_BODY, INVALID_PROTOCOL, MALFORMED_BODY, NESTING_TOO_DEEP */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN, QUOTA_EXCEEDED */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description CHAIN_BROKEN */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNSUPPORTED_MEDIA_TYPE */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getProtocol: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the protocol content hash */
                hash: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        hash: string;
                        protocol: Record<string, never>;
                    };
                };
            };
            /** @description INVALID_HASH */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNKNOWN_PROTOCOL */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    readJournal: {
        parameters: {
            query?: {
                /** @description entries after this seq */
                after?: number;
                /** @description 1–1000 (default 100) */
                limit?: number;
                /** @description true: each entry as the live feed tells it — { seq, kind, at, actor, authority, hash, prev_hash, summary } with its kind’s policy-safe summary and no body */
                summary?: boolean;
            };
            header?: never;
            path: {
                /** @description the project; must be the bearer token’s */
                project: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        project: string;
                        head: Record<string, never>;
                        entries: Record<string, never>[];
                        next_after: number | null;
                    };
                };
            };
            /** @description INVALID_ARGUMENT, INVALID_PROJECT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    verifyJournal: {
        parameters: {
            query?: {
                /** @description true: replay the journal and compare every projection table (owner only) */
                projections?: boolean;
                /** @description judge each checkpoint issuer's validity window at this instant (RFC 3339 with an offset); a checkpoint whose issuer is outside it breaks the chain (checkpoint-mismatch) */
                at?: string;
            };
            header?: never;
            path: {
                /** @description the project; must be the bearer token’s */
                project: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        ok: boolean;
                        project: string;
                        /** @description entries walked */
                        checked: number;
                        head: {
                            seq: number;
                            hash: string;
                        };
                        /** @description the first seq that breaks the chain and why, or null */
                        broken: {
                            seq: number;
                            reason: string;
                            detail: string;
                        } | null;
                        /** @description signed checkpoints checked against it */
                        checkpoints: number;
                        /** @description the last pruned seq, when a prefix was pruned */
                        base?: number;
                        unsigned?: {
                            entries: number;
                            since: string | null;
                        };
                        projections?: {
                            checked: string[];
                            mismatch: string | null;
                        };
                    };
                };
            };
            /** @description INVALID_ARGUMENT, INVALID_PROJECT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNKNOWN_PROJECT */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getReceipt: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the project; must be the bearer token’s */
                project: string;
                /** @description the entry seq */
                seq: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Receipt"];
                };
            };
            /** @description INVALID_ARGUMENT, INVALID_PROJECT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    followEvents: {
        parameters: {
            query?: {
                /** @description start after this seq (Last-Event-ID, when sent, wins) */
                after?: number;
            };
            header?: {
                /** @description resume after this seq (what an EventSource sends when it reconnects) */
                "Last-Event-ID"?: string;
            };
            path: {
                /** @description the project; must be the bearer token’s */
                project: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/event-stream": string;
                };
            };
            /** @description INVALID_ARGUMENT, INVALID_PROJECT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description EVENT_STREAMS_FULL */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listMessages: {
        parameters: {
            query?: {
                /** @description only those after this journal seq (the next page, oldest first) */
                after?: number;
                /** @description only those before this journal seq (the next page, newest first) */
                before?: number;
                /** @description oldest first (journal order, the default) or newest first */
                order?: "oldest" | "newest";
                /** @description at most this many (1–1000, default 100) */
                limit?: number;
            };
            header?: never;
            path: {
                /** @description the project; must be the bearer token’s */
                project: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        messages: components["schemas"]["ArchivedMessage"][];
                    };
                };
            };
            /** @description INVALID_ARGUMENT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postMessage: {
        parameters: {
            query?: {
                /** @description false: archive only, no classification or proposals */
                classify?: "true" | "false";
            };
            header?: never;
            path: {
                /** @description the project; must be the bearer token’s */
                project: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "text": "I would like a red interface for the app."
                 *     }
                 */
                "application/json": {
                    text: string;
                    /**
                     * @description who spoke (an agent may not speak as user or system); never authority
                     * @enum {unknown}
                     */
                    role?: "user" | "assistant" | "agent" | "tool" | "system";
                    message_id?: string;
                    /**
                     * @description personal: only the sender reads it, only their personal notes cite it, and what intake drafts from it stays personal (LCSM §14)
                     * @default project
                     * @enum {unknown}
                     */
                    visibility?: "project" | "personal";
                };
            };
        };
        responses: {
            /** @description success */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        message: components["schemas"]["ArchivedMessage"];
                        classification?: components["schemas"]["Classification"];
                        proposals?: Record<string, never>[];
                        /** @description what to configure when nothing was proposed for want of a subject */
                        hint?: string;
                    };
                };
            };
            /** @description AUTHORITY_FROM_PAYLOAD, INVALID_ARGUMENT, INVALID_BODY, MALFORMED_BODY, NESTING_TOO_DEEP */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description CONFLICT */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNSUPPORTED_MEDIA_TYPE */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description CLASSIFIER_FAILED */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description MODEL_UNAVAILABLE */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description MODEL_BUSY */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listUnclassified: {
        parameters: {
            query?: {
                /** @description only those captured after this journal seq (the next page) */
                after?: number;
                /** @description at most this many (1–1000, default 100) */
                limit?: number;
            };
            header?: never;
            path: {
                /** @description the project; must be the bearer token’s */
                project: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        messages: components["schemas"]["UnclassifiedMessage"][];
                    };
                };
            };
            /** @description INVALID_ARGUMENT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    classifyMessage: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the project; must be the bearer token’s */
                project: string;
                /** @description message id (percent-encoded) */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        message: components["schemas"]["ArchivedMessage"];
                        classification: components["schemas"]["Classification"];
                        proposals: Record<string, never>[];
                        hint?: string;
                    };
                };
            };
            /** @description AUTHORITY_FROM_PAYLOAD, INVALID_ARGUMENT, INVALID_BODY */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNKNOWN_MESSAGE */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description CLASSIFIER_FAILED */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description MODEL_UNAVAILABLE */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description MODEL_BUSY */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getMessage: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the project; must be the bearer token’s */
                project: string;
                /** @description message id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ArchivedMessage"];
                };
            };
            /** @description INVALID_ARGUMENT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNKNOWN_MESSAGE */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getClassifier: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the project; must be the bearer token’s */
                project: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ClassifierView"];
                };
            };
            /** @description INVALID_ARGUMENT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    putSubjects: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the project; must be the bearer token’s */
                project: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "subjects": {
                 *         "release.day": {
                 *           "title": "Release day",
                 *           "object_type": "decision",
                 *           "keywords": [
                 *             "ship",
                 *             "release"
                 *           ]
                 *         }
                 *       }
                 *     }
                 */
                "application/json": {
                    subjects: {
                        [key: string]: {
                            title: string;
                            /** @enum {unknown} */
                            object_type: "constraint" | "decision" | "fact" | "preference" | "plan" | "question" | "policy" | "permission" | "artifact_ref" | "dependency" | "dispute" | "instruction" | "uncertainty";
                            keywords: string[];
                            tags?: string[];
                        };
                    };
                };
            };
        };
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ClassifierView"];
                };
            };
            /** @description AUTHORITY_FROM_PAYLOAD, INVALID_ARGUMENT, INVALID_BODY, MALFORMED_BODY, NESTING_TOO_DEEP */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description CONFLICT */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNSUPPORTED_MEDIA_TYPE */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    removeSubject: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the project; must be the bearer token’s */
                project: string;
                /** @description subject (object) id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ClassifierView"];
                };
            };
            /** @description AUTHORITY_FROM_PAYLOAD, INVALID_ARGUMENT, INVALID_BODY */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNKNOWN_SUBJECT */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description CONFLICT */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listProposals: {
        parameters: {
            query?: {
                /** @description only proposals with this status (decided: committed or rejected) */
                status?: "pending" | "committed" | "rejected" | "decided";
                /** @description only those after this journal seq (the next page, oldest first) */
                after?: number;
                /** @description only those before this journal seq (the next page, newest first) */
                before?: number;
                /** @description oldest first (journal order, the default) or newest first */
                order?: "oldest" | "newest";
                /** @description at most this many (1–1000, default 100) */
                limit?: number;
            };
            header?: never;
            path: {
                /** @description the project; must be the bearer token’s */
                project: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        proposals: components["schemas"]["ProposalRecord"][];
                    };
                };
            };
            /** @description INVALID_ARGUMENT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postProposal: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the project; must be the bearer token’s */
                project: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "object_id": "ui.colour",
                 *       "intent": "create",
                 *       "base_version": null,
                 *       "candidate": {
                 *         "object_type": "preference",
                 *         "title": "Interface colour",
                 *         "text": "The interface is red."
                 *       }
                 *     }
                 */
                "application/json": {
                    object_id: string;
                    /**
                     * @description required. dispute: the candidate carries the competing claim (text, sources, confidence); the object keeps its statement. resolve: claim_id names the open claim that stands, the candidate states it, rationale is required
                     * @enum {unknown}
                     */
                    intent: "create" | "update" | "supersede" | "retire" | "restore" | "dispute" | "resolve";
                    base_version?: string | null;
                    candidate: components["schemas"]["NoteContent"];
                    supersedes?: string[];
                    restore_version?: string;
                    message_id?: string | null;
                    rationale?: string;
                    /** @description resolve only */
                    claim_id?: string;
                };
            };
        };
        responses: {
            /** @description success */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProposalOutcome"];
                };
            };
            /** @description AUTHORITY_FROM_PAYLOAD, INVALID_ARGUMENT, INVALID_BODY, INVALID_PROPOSAL, MALFORMED_BODY, NESTING_TOO_DEEP */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN, GATE_REFUSED */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNKNOWN_CLAIM, UNKNOWN_MESSAGE, UNKNOWN_OBJECT, UNKNOWN_VERSION */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description CONFLICT */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNSUPPORTED_MEDIA_TYPE */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description DEPENDENCY_CYCLE, PLANE_VIOLATION, SOURCE_MISSING */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getProposal: {
        parameters: {
            query?: {
                /** @description judge the gate event's issuer and root at this instant (RFC 3339 with an offset) instead of now; without it, a verdict whose issuer expired after the proposal was recorded is ISSUER_EXPIRED with valid_at, the instant to ask with */
                at?: string;
            };
            header?: never;
            path: {
                /** @description the project; must be the bearer token’s */
                project: string;
                /** @description proposal id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProposalView"];
                };
            };
            /** @description INVALID_ARGUMENT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNKNOWN_PROPOSAL */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    approveProposal: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the project; must be the bearer token’s */
                project: string;
                /** @description proposal id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                /**
                 * @example {
                 *       "base_version": "sha256:0000000000000000000000000000000000000000000000000000000000000000"
                 *     }
                 */
                "application/json": {
                    /** @description the version the approver saw as current: optional on a first approval (then it must be the proposal's base_version), required after a re-comparison (the proposal's approval_requires_base) */
                    base_version?: string | null;
                };
            };
        };
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProposalOutcome"];
                };
            };
            /** @description AUTHORITY_FROM_PAYLOAD, INVALID_ARGUMENT, INVALID_BODY, MALFORMED_BODY, NESTING_TOO_DEEP */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNKNOWN_PROPOSAL */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description BASE_NOT_ACKNOWLEDGED, CONFLICT, PROPOSAL_CLOSED, STALE_APPROVAL */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNSUPPORTED_MEDIA_TYPE */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    rejectProposal: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the project; must be the bearer token’s */
                project: string;
                /** @description proposal id */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "reason": "not what we want"
                 *     }
                 */
                "application/json": {
                    reason: string;
                };
            };
        };
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        proposal: components["schemas"]["ProposalRecord"];
                    };
                };
            };
            /** @description AUTHORITY_FROM_PAYLOAD, INVALID_ARGUMENT, INVALID_BODY, MALFORMED_BODY, NESTING_TOO_DEEP */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNKNOWN_PROPOSAL */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description PROPOSAL_CLOSED */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNSUPPORTED_MEDIA_TYPE */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listObjects: {
        parameters: {
            query?: {
                /** @description comma-separated statuses (active, provisional, disputed, superseded, retired) */
                status?: string;
                /** @description only those whose id sorts after this one, in byte order (the next page) */
                after?: string;
                /** @description at most this many (1–1000, default 100) */
                limit?: number;
            };
            header?: never;
            path: {
                /** @description the project; must be the bearer token’s */
                project: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        objects: components["schemas"]["CanonObject"][];
                    };
                };
            };
            /** @description INVALID_ARGUMENT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getObject: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the project; must be the bearer token’s */
                project: string;
                /** @description object id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        object: components["schemas"]["CanonObject"];
                        current: components["schemas"]["NoteVersion"];
                        versions: number;
                        effective: components["schemas"]["EffectiveState"];
                        /** @description every claim its disputes have held (open ones while disputed) */
                        claims: components["schemas"]["Claim"][];
                        dependency_state: components["schemas"]["DependencyState"] | null;
                    };
                };
            };
            /** @description INVALID_ARGUMENT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNKNOWN_OBJECT */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listVersions: {
        parameters: {
            query?: {
                /** @description only those after this version number (the next page, oldest first) */
                after?: number;
                /** @description only those before this version number (the next page, newest first) */
                before?: number;
                /** @description oldest first (the default) or newest first */
                order?: "oldest" | "newest";
                /** @description at most this many (1–1000, default 100) */
                limit?: number;
            };
            header?: never;
            path: {
                /** @description the project; must be the bearer token’s */
                project: string;
                /** @description object id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        object_id: string;
                        current_version_ref: string;
                        versions: components["schemas"]["NoteVersion"][];
                    };
                };
            };
            /** @description INVALID_ARGUMENT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNKNOWN_OBJECT */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getVersion: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the project; must be the bearer token’s */
                project: string;
                /** @description object id */
                id: string;
                /** @description version number (from 1) or version hash (sha256:…) */
                version: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        object_id: string;
                        current_version_ref: string;
                        version: components["schemas"]["NoteVersion"];
                    };
                };
            };
            /** @description INVALID_ARGUMENT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNKNOWN_OBJECT, UNKNOWN_VERSION */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getProvenance: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the project; must be the bearer token’s */
                project: string;
                /** @description object id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Provenance"];
                };
            };
            /** @description INVALID_ARGUMENT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNKNOWN_OBJECT */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getObjectGraph: {
        parameters: {
            query?: {
                /** @description at most this many nodes (1–1000, default 120) */
                limit?: number;
            };
            header?: never;
            path: {
                /** @description the project; must be the bearer token’s */
                project: string;
                /** @description object id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NoteGraph"];
                };
            };
            /** @description INVALID_ARGUMENT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNKNOWN_OBJECT */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    restoreObject: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the project; must be the bearer token’s */
                project: string;
                /** @description object id */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "version_hash": "sha256:0000000000000000000000000000000000000000000000000000000000000000",
                 *       "rationale": "back to the first version"
                 *     }
                 */
                "application/json": {
                    version_hash?: string;
                    /** @description the version number (version_id) */
                    version?: number;
                    rationale?: string;
                } & (unknown | unknown);
            };
        };
        responses: {
            /** @description success */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProposalOutcome"];
                };
            };
            /** @description AUTHORITY_FROM_PAYLOAD, INVALID_ARGUMENT, INVALID_BODY, INVALID_HASH, MALFORMED_BODY, NESTING_TOO_DEEP */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN, GATE_REFUSED */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNKNOWN_OBJECT, UNKNOWN_VERSION */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description CONFLICT */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNSUPPORTED_MEDIA_TYPE */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description DEPENDENCY_CYCLE, PLANE_VIOLATION */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    resolveObject: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the project; must be the bearer token’s */
                project: string;
                /** @description object id */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "claim_id": "claim_0123456789abcdef",
                 *       "rationale": "the deploy manifest settles it"
                 *     }
                 */
                "application/json": {
                    claim_id: string;
                    rationale: string;
                };
            };
        };
        responses: {
            /** @description success */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProposalOutcome"];
                };
            };
            /** @description AUTHORITY_FROM_PAYLOAD, INVALID_ARGUMENT, INVALID_BODY, INVALID_PROPOSAL, MALFORMED_BODY, NESTING_TOO_DEEP */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN, GATE_REFUSED */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNKNOWN_CLAIM, UNKNOWN_OBJECT */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description CONFLICT */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNSUPPORTED_MEDIA_TYPE */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description PLANE_VIOLATION */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getBoard: {
        parameters: {
            query?: {
                /** @description at most this many of each group (1–1000, default 50) */
                limit?: number;
            };
            header?: never;
            path: {
                /** @description the project; must be the bearer token’s */
                project: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        project: string;
                        limit: number;
                        objects: {
                            active: components["schemas"]["BoardObject"][];
                            provisional: components["schemas"]["BoardObject"][];
                            disputed: components["schemas"]["BoardObject"][];
                            superseded: components["schemas"]["BoardObject"][];
                            retired: components["schemas"]["BoardObject"][];
                        };
                        pending: components["schemas"]["ProposalRecord"][];
                        artifacts: components["schemas"]["ArtifactStatus"][];
                        counts: {
                            objects: {
                                active: {
                                    total: number;
                                    more: boolean;
                                };
                                provisional: {
                                    total: number;
                                    more: boolean;
                                };
                                disputed: {
                                    total: number;
                                    more: boolean;
                                };
                                superseded: {
                                    total: number;
                                    more: boolean;
                                };
                                retired: {
                                    total: number;
                                    more: boolean;
                                };
                            };
                            pending: {
                                total: number;
                                more: boolean;
                            };
                            artifacts: {
                                total: number;
                                more: boolean;
                            };
                        };
                    };
                };
            };
            /** @description INVALID_ARGUMENT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listArtifacts: {
        parameters: {
            query?: {
                /** @description only those whose id sorts after this one, in byte order (the next page) */
                after?: string;
                /** @description at most this many (1–1000, default 100) */
                limit?: number;
            };
            header?: never;
            path: {
                /** @description the project; must be the bearer token’s */
                project: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        artifacts: components["schemas"]["ArtifactStatus"][];
                    };
                };
            };
            /** @description INVALID_ARGUMENT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    registerArtifact: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the project; must be the bearer token’s */
                project: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "artifact_id": "settings-screen",
                 *       "title": "Settings screen",
                 *       "canonical_note_versions": [
                 *         {
                 *           "object_id": "ui.colour",
                 *           "version_hash": "sha256:0000000000000000000000000000000000000000000000000000000000000000"
                 *         }
                 *       ],
                 *       "tool_or_model_refs": [
                 *         "coding-agent"
                 *       ],
                 *       "output_digest": "sha256:0000000000000000000000000000000000000000000000000000000000000000"
                 *     }
                 */
                "application/json": {
                    artifact_id: string;
                    title?: string;
                    input_refs?: string[];
                    canonical_note_versions: {
                        object_id: string;
                        version_hash: string;
                    }[];
                    tool_or_model_refs?: string[];
                    output_digest: string;
                    verification_refs?: string[];
                    /**
                     * @default proposed
                     * @enum {unknown}
                     */
                    acceptance_state?: "proposed" | "accepted" | "rejected";
                };
            };
        };
        responses: {
            /** @description success */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ArtifactStatus"];
                };
            };
            /** @description AUTHORITY_FROM_PAYLOAD, INVALID_ARGUMENT, INVALID_ARTIFACT, INVALID_BODY, INVALID_PROPOSAL, MALFORMED_BODY, NESTING_TOO_DEEP */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNKNOWN_VERSION */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description CONFLICT */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNSUPPORTED_MEDIA_TYPE */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getArtifact: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the project; must be the bearer token’s */
                project: string;
                /** @description artifact id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ArtifactStatus"];
                };
            };
            /** @description INVALID_ARGUMENT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNKNOWN_ARTIFACT */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    reviewArtifact: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the project; must be the bearer token’s */
                project: string;
                /** @description artifact id */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "acceptance_state": "rejected"
                 *     }
                 */
                "application/json": {
                    /** @enum {unknown} */
                    acceptance_state: "proposed" | "accepted" | "rejected";
                };
            };
        };
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ArtifactStatus"];
                };
            };
            /** @description AUTHORITY_FROM_PAYLOAD, INVALID_ARGUMENT, INVALID_ARTIFACT, INVALID_BODY, MALFORMED_BODY, NESTING_TOO_DEEP */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNKNOWN_ARTIFACT */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description CONFLICT */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNSUPPORTED_MEDIA_TYPE */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    compileWorkingSet: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the project; must be the bearer token’s */
                project: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                /**
                 * @example {
                 *       "objective": "Build the settings page in the current visual identity"
                 *     }
                 */
                "application/json": {
                    objective?: string;
                    object_id?: string;
                    /** @default 12 */
                    limit?: number;
                };
            };
        };
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WorkingSet"];
                };
            };
            /** @description AUTHORITY_FROM_PAYLOAD, INVALID_ARGUMENT, INVALID_BODY, MALFORMED_BODY, NESTING_TOO_DEEP */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNKNOWN_OBJECT */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNSUPPORTED_MEDIA_TYPE */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    validateArtifact: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the project; must be the bearer token’s */
                project: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "artifact": {
                 *         "amount": 40
                 *       },
                 *       "agentic_protocol": "sha256:0000000000000000000000000000000000000000000000000000000000000000",
                 *       "generation_metadata_hash": "sha256:0000000000000000000000000000000000000000000000000000000000000000"
                 *     }
                 */
                "application/json": {
                    /** @description the artifact to evaluate (any JSON value) */
                    artifact: unknown;
                    /** @description the protocol inline, the content hash of a registered one, or `in-force:<slug>`: the version of that protocol a promotion put in force for this project (the verdict records the hash it resolved to) */
                    agentic_protocol: Record<string, never> | string;
                    generation_metadata_hash: string;
                };
            };
        };
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidateEnvelope"];
                };
            };
            /** @description AUTHORITY_FROM_PAYLOAD, INVALID_ARGUMENT, INVALID_BODY, INVALID_HASH, INVALID_PROTOCOL, INVALID_REQUEST, MALFORMED_BODY, NESTING_TOO_DEEP */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNKNOWN_PROTOCOL */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNSUPPORTED_MEDIA_TYPE */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INTERPRETATION_DRIFT */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    verifyEvent: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the project; must be the bearer token’s */
                project: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "event": {
                 *         "format": "tcp-ap.conformance-event/1"
                 *       }
                 *     }
                 */
                "application/json": {
                    /** @description the signed conformance event */
                    event: Record<string, never>;
                    /** @description when given, the event must bind this artifact */
                    artifact?: unknown;
                    /** @description when given, the event must bind this protocol */
                    protocol?: Record<string, never>;
                    /** @description when given, the event must bind it */
                    generation_metadata_hash?: string;
                    /** @description the instant (RFC 3339 with an offset) the issuer and root must be valid at, instead of now: an event carries no signing time, so the relying party says when it vouches for */
                    at?: string;
                };
            };
        };
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        verified: boolean;
                        label?: string;
                        /** @description the issuer fingerprint */
                        issuer?: string;
                        development_root?: boolean;
                        error?: {
                            code: string;
                            message: string;
                        };
                    };
                };
            };
            /** @description AUTHORITY_FROM_PAYLOAD, INVALID_ARGUMENT, INVALID_BODY, INVALID_HASH, MALFORMED_BODY, NESTING_TOO_DEEP */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNSUPPORTED_MEDIA_TYPE */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listRelaySessions: {
        parameters: {
            query?: {
                /** @description at most this many (1–100, default 20) */
                limit?: number;
            };
            header?: never;
            path: {
                /** @description the project; must be the bearer token’s */
                project: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        sessions: components["schemas"]["RelaySessionSummary"][];
                    };
                };
            };
            /** @description INVALID_ARGUMENT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    startRelaySession: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the project; must be the bearer token’s */
                project: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "mode": "DOCUMENT",
                 *       "objective": "A design note for the billing service",
                 *       "remaining": [
                 *         "Context",
                 *         "Decision",
                 *         "Consequences"
                 *       ]
                 *     }
                 */
                "application/json": {
                    /**
                     * @description DOCUMENT, CONVERSATION, TOOL or AGENTIC (§4)
                     * @enum {unknown}
                     */
                    mode: "DOCUMENT" | "CONVERSATION" | "TOOL" | "AGENTIC";
                    objective: string;
                    /** @description sections, open questions, tool outputs or sub-tasks still to do (§4.2) */
                    remaining?: string[];
                    success_test?: string | null;
                    max_revisions?: number;
                    /** @enum {unknown} */
                    on_unverified?: "regenerate" | "halt";
                    /**
                     * @description CRP-018 §6.1 air-mode (default adaptive); a CRP-Safety-Policy header sets it too
                     * @enum {unknown}
                     */
                    air_mode?: "off" | "passive" | "adaptive" | "aggressive";
                    /** @description CRP-018 §6.1 air-iap-budget: the most tokens one window's IAP may take (default 512) */
                    air_iap_budget?: number;
                };
            };
        };
        responses: {
            /** @description success */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RelaySessionView"];
                };
            };
            /** @description AUTHORITY_FROM_PAYLOAD, INVALID_ARGUMENT, INVALID_BODY, MALFORMED_BODY, NESTING_TOO_DEEP */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNSUPPORTED_MEDIA_TYPE */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getRelaySession: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the project; must be the bearer token’s */
                project: string;
                /** @description relay session id (rs-…) */
                session: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RelaySessionView"];
                };
            };
            /** @description INVALID_ARGUMENT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNKNOWN_SESSION */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    prepareRelayWindow: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the project; must be the bearer token’s */
                project: string;
                /** @description relay session id (rs-…) */
                session: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                /**
                 * @example {
                 *       "max_tokens": 8000
                 *     }
                 */
                "application/json": {
                    /** @description the prompt's token budget (slice items beyond it are dropped, and listed) */
                    max_tokens?: number;
                    /**
                     * @description CRP-018 §6.1 air-mode for this window (else the session's)
                     * @enum {unknown}
                     */
                    air_mode?: "off" | "passive" | "adaptive" | "aggressive";
                    /** @description CRP-018 §6.1 air-iap-budget for this window, in tokens */
                    air_iap_budget?: number;
                };
            };
        };
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RelayPreparedWindow"];
                };
            };
            /** @description AUTHORITY_FROM_PAYLOAD, INVALID_ARGUMENT, INVALID_BODY, INVALID_POLICY, MALFORMED_BODY, NESTING_TOO_DEEP */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNKNOWN_SESSION */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SESSION_CLOSED */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNSUPPORTED_MEDIA_TYPE */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listRelayWindows: {
        parameters: {
            query?: {
                /** @description only windows after this number */
                after?: number;
                /** @description at most this many (1–100, default 20) */
                limit?: number;
            };
            header?: never;
            path: {
                /** @description the project; must be the bearer token’s */
                project: string;
                /** @description relay session id (rs-…) */
                session: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        windows: components["schemas"]["RelayWindow"][];
                    };
                };
            };
            /** @description INVALID_ARGUMENT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNKNOWN_SESSION */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    completeRelayWindow: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the project; must be the bearer token’s */
                project: string;
                /** @description relay session id (rs-…) */
                session: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "output": "Context: the service has 40,000 daily users and runs in one region.",
                 *       "contribution": {
                 *         "facts": [
                 *           {
                 *             "statement": "the service has 40,000 daily users",
                 *             "provenance": "CONVERSATION"
                 *           }
                 *         ],
                 *         "decisions": [
                 *           {
                 *             "decision_id": "d_region",
                 *             "choice": "stay in one region for now",
                 *             "rationale": "the load fits one region"
                 *           }
                 *         ],
                 *         "completed": [
                 *           "Context"
                 *         ]
                 *       }
                 *     }
                 */
                "application/json": {
                    /** @description the window's text */
                    output: string;
                    /** @description the window the output was written for (prepare's window_number): CONFLICT unless it is the session's next, so a retry after a lost response cannot complete the window after it */
                    window_number?: number;
                    /** @description the window's structured contribution (untrusted): facts it restates or adds, decisions with rationale, what it completed, supersedes, revises */
                    contribution?: components["schemas"]["RelayContribution"];
                    /** @description the model route that wrote it */
                    model?: string | null;
                    /** @description the prepared window's context_packet_hash (the prompt sent); journaled for replay */
                    context_packet_hash?: string;
                    /** @description the raw answers the model gave for this window, the one taken last; journaled so a replay can stand in for the model (none past 8) */
                    answers?: string[];
                    /**
                     * @description CRP-018 §6.1 air-mode for this window (else the session's)
                     * @enum {unknown}
                     */
                    air_mode?: "off" | "passive" | "adaptive" | "aggressive";
                    /** @description CRP-018 §6.1 air-iap-budget for this window, in tokens */
                    air_iap_budget?: number;
                };
            };
        };
        responses: {
            /** @description success */
            200: {
                headers: {
                    /** @description valid prior facts kept / valid prior facts, two decimals rounded down; "; repaired=N" when verification re-injected N */
                    "CRP-Relay-Preservation"?: string;
                    /** @description established facts in the relayed CSO */
                    "CRP-Relay-CSO-Facts"?: string;
                    /** @description decisions in the relayed CSO */
                    "CRP-Relay-CSO-Decisions"?: string;
                    /** @description edges on the longest dependency chain */
                    "CRP-Relay-Dependency-Depth"?: string;
                    /** @description decisions this window revised */
                    "CRP-Relay-Revisions"?: string;
                    /** @description the decision it revised (when it did) */
                    "CRP-Relay-Revision-Target"?: string;
                    /** @description whether the AIR feedback loop injects into the next window (CRP-018 §5.1) */
                    "CRP-AIR-Active"?: string;
                    /** @description the session IQ of §5.2 after this window, 0–100 */
                    "CRP-AIR-Session-IQ"?: string;
                    /** @description tokens of the IAP the next window carries (§5.3) */
                    "CRP-AIR-IAP-Token-Cost"?: string;
                    /** @description claims in the error quarantine (§5.4) */
                    "CRP-AIR-Error-Quarantine-Count"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RelayCompletedWindow"];
                };
            };
            /** @description AUTHORITY_FROM_PAYLOAD, INVALID_ARGUMENT, INVALID_BODY, INVALID_POLICY, MALFORMED_BODY, NESTING_TOO_DEEP */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNKNOWN_SESSION */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description BATCH_HELD, CONFLICT, SESSION_CLOSED */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNSUPPORTED_MEDIA_TYPE */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description DEPENDENCY_CYCLE, MODEL_OUTPUT_INVALID */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getRelayQuality: {
        parameters: {
            query?: {
                /** @description only windows after this number */
                after?: number;
                /** @description at most this many windows (1–500, default 500) */
                limit?: number;
            };
            header?: never;
            path: {
                /** @description the project; must be the bearer token’s */
                project: string;
                /** @description relay session id (rs-…) */
                session: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        session_id: string;
                        windows: components["schemas"]["RelayWindowQuality"][];
                    };
                };
            };
            /** @description INVALID_ARGUMENT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNKNOWN_SESSION */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    verifyRelaySession: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the project; must be the bearer token’s */
                project: string;
                /** @description relay session id (rs-…) */
                session: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RelayChainReport"];
                };
            };
            /** @description INVALID_ARGUMENT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNKNOWN_SESSION */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listEvents: {
        parameters: {
            query?: {
                /** @description only events of this type */
                event_type?: "memory" | "transition" | "routing" | "verification" | "arbitration" | "tool" | "training" | "benchmark";
                /** @description only events from this kind of entry, any version of it (canon.commit, relay.window, …) */
                class?: string;
                /** @description only those after this journal seq */
                after?: number;
                /** @description only those before this journal seq */
                before?: number;
                /** @description oldest first (journal order, the default) or newest first */
                order?: "oldest" | "newest";
                /** @description at most this many (1–1000, default 100) */
                limit?: number;
            };
            header?: never;
            path: {
                /** @description the project; must be the bearer token’s */
                project: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        events: {
                            event_id: string;
                            seq: number;
                            event_type: string;
                            class: string;
                            schema_version: string;
                            created_at: number;
                            pending: number;
                        }[];
                    };
                };
            };
            /** @description INVALID_ARGUMENT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getEvent: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the project; must be the bearer token’s */
                project: string;
                /** @description the event id (a UUID) */
                event: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        event: Record<string, never>;
                        origin: Record<string, never>;
                        targets: string[];
                        sources: Record<string, never>[];
                        seq: number;
                        deliveries: {
                            event_id: string;
                            target: string;
                            /** @enum {unknown} */
                            outcome: "delivered" | "refused" | "dead_letter";
                            attempts: number;
                            code: string | null;
                            reason: string | null;
                            record: Record<string, never> | null;
                            seq?: number;
                        }[];
                    };
                };
            };
            /** @description INVALID_ARGUMENT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNKNOWN_EVENT */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    verifyEvents: {
        parameters: {
            query?: {
                /** @description only those after this journal seq */
                after?: number;
                /** @description at most this many events checked (1–256, default 256); next says where the following page starts */
                limit?: number;
                /** @description judge each signing certificate and the root at this instant (RFC 3339 with an offset) instead of now */
                at?: string;
            };
            header?: never;
            path: {
                /** @description the project; must be the bearer token’s */
                project: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        ok: boolean;
                        project: string;
                        checked: number;
                        verified: number;
                        failed: Record<string, never>[];
                        next: number | null;
                    };
                };
            };
            /** @description INVALID_ARGUMENT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listDeadLetters: {
        parameters: {
            query?: {
                /** @description only those after this journal seq */
                after?: number;
                /** @description at most this many (1–1000, default 100) */
                limit?: number;
            };
            header?: never;
            path: {
                /** @description the project; must be the bearer token’s */
                project: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        dead_letters: {
                            event_id: string;
                            target: string;
                            /** @enum {unknown} */
                            outcome: "delivered" | "refused" | "dead_letter";
                            attempts: number;
                            code: string | null;
                            reason: string | null;
                            record: Record<string, never> | null;
                            seq?: number;
                        }[];
                    };
                };
            };
            /** @description INVALID_ARGUMENT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    retryDeadLetter: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the project; must be the bearer token’s */
                project: string;
                /** @description the event id */
                event: string;
                /** @description the target name */
                target: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        event_id: string;
                        target: string;
                        /** @enum {unknown} */
                        outcome: "delivered" | "refused" | "dead_letter";
                        attempts: number;
                        code: string | null;
                        reason: string | null;
                        record: Record<string, never> | null;
                        seq?: number;
                    };
                };
            };
            /** @description AUTHORITY_FROM_PAYLOAD, INVALID_ARGUMENT, INVALID_BODY */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNKNOWN_DEAD_LETTER, UNKNOWN_EVENT, UNKNOWN_TARGET */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description CONFLICT, EVOLUTION_OFF */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SHUTTING_DOWN */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    giveFeedback: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the project; must be the bearer token’s */
                project: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "subject": "canon.commit:demo:12",
                 *       "score": 0.9
                 *     }
                 */
                "application/json": {
                    subject: string;
                    score: number;
                    remember?: {
                        title: string;
                        text: string;
                    };
                };
            };
        };
        responses: {
            /** @description success */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        feedback_id: string;
                        seq: number;
                    };
                };
            };
            /** @description AUTHORITY_FROM_PAYLOAD, INVALID_ARGUMENT, INVALID_BODY, MALFORMED_BODY, NESTING_TOO_DEEP */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNSUPPORTED_MEDIA_TYPE */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listPromotions: {
        parameters: {
            query?: {
                /** @description only those proposed after this journal seq (a page's next) */
                after?: number;
                /** @description at most this many (1–100, default 100) */
                limit?: number;
            };
            header?: never;
            path: {
                /** @description the project; must be the bearer token’s */
                project: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        promotions: {
                            promotion: {
                                promotion_id: string;
                                artifact_kind: string;
                                address: string;
                                stage: string;
                                rejected_at?: string | null;
                                reason?: string | null;
                                candidate?: Record<string, never>;
                                publication?: Record<string, never> | null;
                                arms?: Record<string, never>;
                                /** @description observations the arms hold in all; history keeps the latest 256 */
                                observed?: number;
                                history: Record<string, never>[];
                            };
                            canary_mean: number | null;
                            baseline_mean: number | null;
                        }[];
                        /** @description the after of the following page, or null at the end */
                        next: number | null;
                    };
                };
            };
            /** @description INVALID_ARGUMENT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    startPromotion: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the project; must be the bearer token’s */
                project: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "promotion_id": "refund-guard-1.1",
                 *       "artifact_kind": "air_settings",
                 *       "artifact": {
                 *         "mode": "adaptive",
                 *         "iap_budget": 384
                 *       },
                 *       "baseline": "sha256:0000000000000000000000000000000000000000000000000000000000000000",
                 *       "canary": {
                 *         "share": 0.1,
                 *         "projects": []
                 *       },
                 *       "metric": {
                 *         "name": "session_iq",
                 *         "margin": 0.02,
                 *         "min_samples": 50
                 *       },
                 *       "replay_events": [
                 *         "0f8b6c2e-3d4a-4b5c-8d6e-7f8091a2b3c4"
                 *       ]
                 *     }
                 */
                "application/json": {
                    promotion_id: string;
                    /** @enum {unknown} */
                    artifact_kind: "agentic_protocol" | "gate_policy" | "air_settings";
                    artifact: Record<string, never>;
                    baseline: string | null;
                    canary: {
                        share: number;
                        projects: string[];
                    };
                    metric: {
                        name: string;
                        margin: number;
                        min_samples: number;
                        /** @description observations each arm needs before the canary decides (default 3, at least that) */
                        min_observations?: number;
                        /** @description most samples one observation may claim (default min_samples) */
                        max_observation_samples?: number;
                    };
                    replay_events: string[];
                    /** @description take it through validation, checks, publication and into its canary now (default true) */
                    advance?: boolean;
                    /** @description the artifacts the kernel verdict events in replay_events were decided on (each is found by its content hash; used for this call's replay validation, never journaled) */
                    replay_artifacts?: unknown[];
                };
            };
        };
        responses: {
            /** @description success */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        promotion: {
                            promotion_id: string;
                            artifact_kind: string;
                            address: string;
                            stage: string;
                            rejected_at?: string | null;
                            reason?: string | null;
                            candidate?: Record<string, never>;
                            publication?: Record<string, never> | null;
                            arms?: Record<string, never>;
                            /** @description observations the arms hold in all; history keeps the latest 256 */
                            observed?: number;
                            history: Record<string, never>[];
                        };
                        canary_mean: number | null;
                        baseline_mean: number | null;
                    };
                };
            };
            /** @description AUTHORITY_FROM_PAYLOAD, INVALID_ARGUMENT, INVALID_BODY, INVALID_PROMOTION, MALFORMED_BODY, NESTING_TOO_DEEP */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNKNOWN_PROMOTION */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description CONFLICT, PROMOTION_ILLEGAL_TRANSITION */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNSUPPORTED_MEDIA_TYPE */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description PUBLICATION_INVALID */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getPromotion: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the project; must be the bearer token’s */
                project: string;
                /** @description promotion id */
                promotion: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        promotion: {
                            promotion_id: string;
                            artifact_kind: string;
                            address: string;
                            stage: string;
                            rejected_at?: string | null;
                            reason?: string | null;
                            candidate?: Record<string, never>;
                            publication?: Record<string, never> | null;
                            arms?: Record<string, never>;
                            /** @description observations the arms hold in all; history keeps the latest 256 */
                            observed?: number;
                            history: Record<string, never>[];
                        };
                        canary_mean: number | null;
                        baseline_mean: number | null;
                    };
                };
            };
            /** @description INVALID_ARGUMENT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNKNOWN_PROMOTION */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    advancePromotion: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the project; must be the bearer token’s */
                project: string;
                /** @description promotion id */
                promotion: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                /**
                 * @example {
                 *       "replay_artifacts": [
                 *         {
                 *           "amount": 20
                 *         }
                 *       ]
                 *     }
                 */
                "application/json": {
                    /** @description the artifacts the kernel verdict events in replay_events were decided on (each is found by its content hash; used for this call's replay validation, never journaled) */
                    replay_artifacts?: unknown[];
                };
            };
        };
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        promotion: {
                            promotion_id: string;
                            artifact_kind: string;
                            address: string;
                            stage: string;
                            rejected_at?: string | null;
                            reason?: string | null;
                            candidate?: Record<string, never>;
                            publication?: Record<string, never> | null;
                            arms?: Record<string, never>;
                            /** @description observations the arms hold in all; history keeps the latest 256 */
                            observed?: number;
                            history: Record<string, never>[];
                        };
                        canary_mean: number | null;
                        baseline_mean: number | null;
                    };
                };
            };
            /** @description AUTHORITY_FROM_PAYLOAD, INVALID_ARGUMENT, INVALID_BODY, MALFORMED_BODY, NESTING_TOO_DEEP */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNKNOWN_PROMOTION */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description CONFLICT, PROMOTION_FINISHED, PROMOTION_ILLEGAL_TRANSITION */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNSUPPORTED_MEDIA_TYPE */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description PUBLICATION_INVALID */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    observePromotion: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the project; must be the bearer token’s */
                project: string;
                /** @description promotion id */
                promotion: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "arm": "canary",
                 *       "value": 0.82,
                 *       "samples": 25
                 *     }
                 */
                "application/json": {
                    /** @enum {unknown} */
                    arm: "canary" | "baseline";
                    /** @description the metric's mean */
                    value: number;
                    /** @description sessions measured: at most the promotion's metric.max_observation_samples */
                    samples: number;
                };
            };
        };
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        promotion: {
                            promotion_id: string;
                            artifact_kind: string;
                            address: string;
                            stage: string;
                            rejected_at?: string | null;
                            reason?: string | null;
                            candidate?: Record<string, never>;
                            publication?: Record<string, never> | null;
                            arms?: Record<string, never>;
                            /** @description observations the arms hold in all; history keeps the latest 256 */
                            observed?: number;
                            history: Record<string, never>[];
                        };
                        canary_mean: number | null;
                        baseline_mean: number | null;
                    };
                };
            };
            /** @description AUTHORITY_FROM_PAYLOAD, INVALID_ARGUMENT, INVALID_BODY, INVALID_PROMOTION, MALFORMED_BODY, NESTING_TOO_DEEP */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNKNOWN_PROMOTION */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description CONFLICT, PROMOTION_ILLEGAL_TRANSITION */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNSUPPORTED_MEDIA_TYPE */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    promotePromotion: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the project; must be the bearer token’s */
                project: string;
                /** @description promotion id */
                promotion: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "reason": "the pilot team signed off"
                 *     }
                 */
                "application/json": {
                    reason: string;
                };
            };
        };
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        promotion: {
                            promotion_id: string;
                            artifact_kind: string;
                            address: string;
                            stage: string;
                            rejected_at?: string | null;
                            reason?: string | null;
                            candidate?: Record<string, never>;
                            publication?: Record<string, never> | null;
                            arms?: Record<string, never>;
                            /** @description observations the arms hold in all; history keeps the latest 256 */
                            observed?: number;
                            history: Record<string, never>[];
                        };
                        canary_mean: number | null;
                        baseline_mean: number | null;
                    };
                };
            };
            /** @description AUTHORITY_FROM_PAYLOAD, INVALID_ARGUMENT, INVALID_BODY, MALFORMED_BODY, NESTING_TOO_DEEP */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNKNOWN_PROMOTION */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description CONFLICT, PROMOTION_ILLEGAL_TRANSITION */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNSUPPORTED_MEDIA_TYPE */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    rollBackPromotion: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the project; must be the bearer token’s */
                project: string;
                /** @description promotion id */
                promotion: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "reason": "an incident in the canary"
                 *     }
                 */
                "application/json": {
                    reason: string;
                };
            };
        };
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        promotion: {
                            promotion_id: string;
                            artifact_kind: string;
                            address: string;
                            stage: string;
                            rejected_at?: string | null;
                            reason?: string | null;
                            candidate?: Record<string, never>;
                            publication?: Record<string, never> | null;
                            arms?: Record<string, never>;
                            /** @description observations the arms hold in all; history keeps the latest 256 */
                            observed?: number;
                            history: Record<string, never>[];
                        };
                        canary_mean: number | null;
                        baseline_mean: number | null;
                    };
                };
            };
            /** @description AUTHORITY_FROM_PAYLOAD, INVALID_ARGUMENT, INVALID_BODY, MALFORMED_BODY, NESTING_TOO_DEEP */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNKNOWN_PROMOTION */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description CONFLICT, PROMOTION_ILLEGAL_TRANSITION */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNSUPPORTED_MEDIA_TYPE */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listAdmissions: {
        parameters: {
            query?: {
                /** @description only those naming a project that sorts after this one, in byte order (the next page) */
                after?: string;
                /** @description at most this many (1–1000, default 100) */
                limit?: number;
            };
            header?: never;
            path: {
                /** @description the project; must be the bearer token’s */
                project: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        admissions: {
                            from_project: string;
                            admitted: boolean;
                            /** @description the entry that set it (0: never set) in this journal */
                            seq: number;
                        }[];
                    };
                };
            };
            /** @description INVALID_ARGUMENT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    admitPromotions: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the project; must be the bearer token’s */
                project: string;
                /** @description the project whose promotions are admitted */
                from: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        from_project: string;
                        admitted: boolean;
                        /** @description the entry that set it (0: never set) in this journal */
                        seq: number;
                    };
                };
            };
            /** @description AUTHORITY_FROM_PAYLOAD, INVALID_ARGUMENT, INVALID_BODY, INVALID_PROJECT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description CONFLICT */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    withdrawAdmission: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the project; must be the bearer token’s */
                project: string;
                /** @description the project whose promotions are admitted */
                from: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        from_project: string;
                        admitted: boolean;
                        /** @description the entry that set it (0: never set) in this journal */
                        seq: number;
                    };
                };
            };
            /** @description AUTHORITY_FROM_PAYLOAD, INVALID_ARGUMENT, INVALID_BODY, INVALID_PROJECT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description CONFLICT */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    whoami: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the project; must be the bearer token’s */
                project: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        project: string;
                        principal: string;
                        /** @enum {unknown} */
                        role: "owner" | "editor" | "agent" | "tool" | "viewer";
                    };
                };
            };
            /** @description INVALID_ARGUMENT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listTokens: {
        parameters: {
            query?: {
                /** @description only those made after this token (its id; the next page) */
                after?: string;
                /** @description at most this many (1–1000, default 100) */
                limit?: number;
            };
            header?: never;
            path: {
                /** @description the project; must be the bearer token’s */
                project: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        tokens: components["schemas"]["TokenInfo"][];
                    };
                };
            };
            /** @description INVALID_ARGUMENT */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createToken: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the project; must be the bearer token’s */
                project: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "principal": "assistant",
                 *       "role": "agent"
                 *     }
                 */
                "application/json": {
                    principal: string;
                    /** @enum {unknown} */
                    role: "owner" | "editor" | "agent" | "tool" | "viewer";
                };
            };
        };
        responses: {
            /** @description success */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        token: string;
                        info: components["schemas"]["TokenInfo"];
                    };
                };
            };
            /** @description AUTHORITY_FROM_PAYLOAD, INVALID_ARGUMENT, INVALID_BODY, MALFORMED_BODY, NESTING_TOO_DEEP */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNSUPPORTED_MEDIA_TYPE */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    revokeToken: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the project; must be the bearer token’s */
                project: string;
                /** @description token id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        token_id: string;
                        /** @constant */
                        revoked: true;
                    };
                };
            };
            /** @description AUTHORITY_FROM_PAYLOAD, INVALID_ARGUMENT, INVALID_BODY */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHENTICATED */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNKNOWN_TOKEN */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
}
