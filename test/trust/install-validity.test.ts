// An issuer certificate is installed only inside its window (and its root's): one signed by a root
// machine whose clock runs ahead would make the server sign events no one verifies until then.
import { describe, expect, it } from 'vitest';
import { keysSnapshot, offlineRoot, pinnedKeyring } from './ceremony.js';

describe('installIssuer and the validity window', () => {
  it('refuses a certificate not valid yet, changing nothing, and installs one valid now', async () => {
    const { root } = await offlineRoot();
    const { ring, dataDir } = await pinnedKeyring(root);
    const request = await ring.requestIssuer();
    const tomorrow = new Date(Date.now() + 24 * 3600 * 1000);
    const early = await root.signRequest(request.certificateRequestPem, { now: tomorrow });
    const before = await keysSnapshot(dataDir);
    await expect(ring.installIssuer(early.certificatePem)).rejects.toMatchObject({
      code: 'CHAIN_INVALID',
    });
    expect(await keysSnapshot(dataDir)).toEqual(before);
    expect(ring.canSign).toBe(false);
    // The same key, certified at the root's own time, installs.
    const fresh = await ring.requestIssuer({ fresh: true });
    const now = await root.signRequest(fresh.certificateRequestPem);
    await expect(ring.installIssuer(now.certificatePem)).resolves.toMatchObject({
      active: true,
    });
  });
});
