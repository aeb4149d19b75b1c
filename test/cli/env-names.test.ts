// A bad CANONRY_* value stops the command with one line naming the variable, not the flag it
// stands in for.
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/runtime.js';
import { serveRefuses } from '../helpers/serve.js';

describe('environment variables named in their refusals', () => {
  it('CANONRY_PORT and CANONRY_HOST for serve, CANONRY_TIMEOUT and CANONRY_URL for --url', async () => {
    const temp = tempDir('canonry-cli-env-');
    try {
      // Without --port, so the variable is read (serveRefuses passes --port 0).
      const port = await runCli(['serve', '--data', temp.dir], { env: { CANONRY_PORT: 'abc' } });
      expect(port.code).toBe(1);
      expect(port.stderr).toMatch(/^canonry: INVALID_ARGUMENT: CANONRY_PORT must be an integer/);
      const host = await serveRefuses(temp.dir, { env: { CANONRY_HOST: 'no such host!' } });
      expect(host.stderr).toMatch(/INVALID_ARGUMENT: CANONRY_HOST must be a host name/);
      const timeout = await runCli(
        ['canon', 'board', '--url', 'http://127.0.0.1:9', '--project', 'p', '--token', 't'],
        { env: { CANONRY_TIMEOUT: 'soon' } },
      );
      expect(timeout.stderr).toMatch(
        /^canonry: INVALID_ARGUMENT: CANONRY_TIMEOUT must be whole seconds/,
      );
      const url = await runCli(['canon', 'board', '--project', 'p', '--token', 't'], {
        env: { CANONRY_URL: 'ftp://example.invalid/' },
      });
      expect(url.stderr).toMatch(/^canonry: INVALID_ARGUMENT: CANONRY_URL: the server URL must be/);
    } finally {
      temp.cleanup();
    }
  }, 60_000);
});
