// The board resource (canonry://projects/<project>/board) answers what getBoard does: the first
// rows of each group with its total and whether more exist, never the whole project; the rest is
// read with the paged tools (listObjects after the group's last id). In process, over MCP's
// in-memory transport, acting as a viewer token, on both engines.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMcpServer } from '../../src/mcp/index.js';
import { BOARD_LIMIT, localInvoker } from '../../src/operations/index.js';
import { tokensFor } from '../helpers/auth.js';
import {
  CANON_ENGINES,
  create,
  type EngineRuntime,
  PROJECT,
  principals,
} from '../helpers/canon.js';

/** How many shared active notes the scenario makes: more than a board group holds. */
const MADE = BOARD_LIMIT + 7;

for (const engine of CANON_ENGINES) {
  describe.skipIf(!engine.available)(`the MCP board resource on ${engine.name}`, () => {
    const who = principals();
    const ids: string[] = [];
    let e: EngineRuntime;
    let client: Client;

    beforeAll(async () => {
      e = await engine.open();
      for (let i = 0; i < MADE; i++) {
        const id = `n.${String(i).padStart(3, '0')}`;
        await create(e.runtime, who.owner, id, { title: id, text: `The value of ${id}.` });
        ids.push(id);
      }
      // Another principal's personal notes: not on the viewer's board, not in its counts.
      for (let i = 0; i < 5; i++)
        await create(e.runtime, who.editor, `m.${i}`, { title: 'mine', visibility: 'personal' });
      const { val } = await tokensFor(e.runtime, PROJECT, { val: 'viewer' });
      const server = createMcpServer(
        localInvoker(e.runtime, val),
        { project: PROJECT, role: 'viewer' },
        'test',
      );
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      await server.connect(serverSide);
      client = new Client({ name: 'canonry-test', version: '1.0.0' });
      await client.connect(clientSide);
    }, 240_000);
    afterAll(async () => {
      await client?.close().catch(() => undefined);
      await e?.close();
    });

    it('holds the first of each group with its total, and the paged tool reads on', async () => {
      const read = await client.readResource({ uri: `canonry://projects/${PROJECT}/board` });
      const board = JSON.parse((read.contents[0] as { text: string }).text);
      expect(board.limit).toBe(BOARD_LIMIT);
      expect(board.objects.active.map((o: { object_id: string }) => o.object_id)).toEqual(
        ids.slice(0, BOARD_LIMIT),
      );
      expect(board.counts.objects.active).toEqual({ total: MADE, more: true });
      expect(board.counts.objects.retired).toEqual({ total: 0, more: false });
      expect(board.counts.pending).toEqual({ total: 0, more: false });
      const rest = (await client.callTool({
        name: 'listObjects',
        arguments: { status: 'active', after: ids[BOARD_LIMIT - 1] },
      })) as { content: { text: string }[] };
      const page = JSON.parse(rest.content[0]!.text);
      expect(page.objects.map((o: { object_id: string }) => o.object_id)).toEqual(
        ids.slice(BOARD_LIMIT),
      );
    });
  });
}
