// What people and models wrote reaches the operator's terminal through the CLI: a message's text, a
// note, an id quoted back in an error. None of it may reach the terminal as a control it obeys (a
// cursor move, OSC 52 writing the clipboard, a carriage return overwriting the line, a one-character
// C1 CSI, a bidirectional override), in human output or in JSON, while JSON still reads back as the
// exact text that was archived.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forTerminal } from '../../src/cli/terminal.js';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/runtime.js';

/** Every character class a terminal obeys, each in a message of its own and all in one. */
const HOSTILE = {
  osc52: 'copy \u001b]52;c;cm0gLXJmIH4=\u0007 this',
  clear: 'wipe \u001b[2J\u001b[H the screen',
  carriage: 'harmless\rrm -rf ~ # looks like this line',
  c1csi: 'one-byte \u009b31m red',
  del: 'rub \u007f out',
  bidi: 'total \u202e01$ yap\u202c fee \u2066isolate\u2069 \u200fmark',
} as const;

/** The controls a terminal obeys in `text`: C0 but newline and tab, DEL, C1 and bidi controls. */
function obeyed(text: string): string[] {
  return [...text]
    .map((ch) => ch.codePointAt(0) ?? 0)
    .filter(
      (c) =>
        (c < 0x20 && c !== 0x0a && c !== 0x09) ||
        (c >= 0x7f && c <= 0x9f) ||
        [0x061c, 0x200e, 0x200f].includes(c) ||
        (c >= 0x202a && c <= 0x202e) ||
        (c >= 0x2066 && c <= 0x2069),
    )
    .map((c) => `U+${c.toString(16).padStart(4, '0')}`);
}

describe('forTerminal', () => {
  it('escapes every control a terminal obeys and leaves the rest alone', () => {
    for (const text of Object.values(HOSTILE)) {
      const shown = forTerminal(text);
      expect(obeyed(shown)).toEqual([]);
      // Each escape names the character it replaced, so nothing is lost from what is shown.
      expect(JSON.parse(`"${shown.replaceAll('"', '\\"')}"`)).toBe(text);
    }
    const plain = 'Olivia wrote:\n\tthe déjà-vu of 東京, مرحبا, and 🎉 — “quoted”';
    expect(forTerminal(plain)).toBe(plain);
  });
});

describe('the CLI prints user text without terminal controls', { timeout: 240_000 }, () => {
  let dir: string;
  let cleanup: () => void;
  let token: string;
  const cli = (args: string[]) =>
    runCli([...args, '--data', dir], { env: { CANONRY_TOKEN: token ?? '' } });

  beforeAll(async () => {
    ({ dir, cleanup } = tempDir('canonry-cli-terminal-'));
    const made = await runCli(
      ['tokens', 'create', '--project', 'p', '--principal', 'olivia', '--role', 'owner'].concat([
        '--data',
        dir,
      ]),
    );
    expect(made.code, made.stderr).toBe(0);
    token = made.stdout.trim();
    for (const [id, text] of Object.entries(HOSTILE)) {
      const r = await cli(['canon', 'message', text, '--id', `m_${id}`, '--no-classify', '--json']);
      expect(r.code, r.stderr).toBe(0);
    }
  });
  afterAll(() => cleanup?.());

  it('lists the archive with each control escaped, and JSON reads back the exact text', async () => {
    const human = await cli(['canon', 'messages']);
    expect(human.code, human.stderr).toBe(0);
    expect(obeyed(human.stdout)).toEqual([]);
    expect(obeyed(human.stderr)).toEqual([]);
    // One line per message: no carriage return or newline smuggled a line of its own.
    expect(human.stdout.trim().split('\n')).toHaveLength(Object.keys(HOSTILE).length);
    expect(human.stdout).toContain('copy \\u001b]52;c;cm0gLXJmIH4=\\u0007 this');
    expect(human.stdout).toContain('harmless\\u000drm -rf ~');
    expect(human.stdout).toContain('total \\u202e01$ yap\\u202c fee');

    const json = await cli(['canon', 'messages', '--json']);
    expect(json.code, json.stderr).toBe(0);
    expect(obeyed(json.stdout)).toEqual([]);
    const texts = Object.fromEntries(
      (JSON.parse(json.stdout).messages as { message_id: string; text: string }[]).map((m) => [
        m.message_id,
        m.text,
      ]),
    );
    expect(texts).toEqual(
      Object.fromEntries(Object.entries(HOSTILE).map(([id, text]) => [`m_${id}`, text])),
    );
  });

  it('quotes a hostile argument back in errors and usage errors without its controls', async () => {
    for (const args of [
      ['canon', 'object', 'x\u001b[2J\u009b1;1H'],
      ['canon', 'object', 'x\u001b[2J', '--json'],
      ['canon', 'no\u001b]0;pwned\u0007such-command'],
      ['canon', 'messages', '--order', 'new\u202eest'],
    ]) {
      const r = await cli(args);
      expect(r.code, args.join(' ')).not.toBe(0);
      expect(obeyed(`${r.stdout}${r.stderr}`), args.join(' ')).toEqual([]);
      expect(`${r.stdout}${r.stderr}`.length, args.join(' ')).toBeGreaterThan(0);
    }
  });
});
