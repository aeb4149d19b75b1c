import * as canonry from 'canonry/canon';

/** Artifacts read per page. */
const PAGE = 1000;

/**
 * Every artifact of `project` with its §10 state, as the operator reads them: page by page in id
 * order where canonry answers pages (`artifactStatusPage`), else the whole list builds before
 * had (`artifactStatuses`).
 * @param {any} canon @param {string} project @returns {Promise<any[]>}
 */
export async function everyArtifactStatus(canon, project) {
  const api = /** @type {any} */ (canonry);
  if (typeof api.artifactStatusPage !== 'function') return api.artifactStatuses(canon, project);
  const reader = canon.reader(project);
  const out = [];
  for (let after = null; ; ) {
    const page = await api.artifactStatusPage(reader, { limit: PAGE, ...(after ? { after } : {}) });
    out.push(...page);
    if (page.length < PAGE) return out;
    after = page.at(-1).manifest.artifact_id;
  }
}
