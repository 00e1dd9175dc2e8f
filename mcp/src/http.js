// SPDX-License-Identifier: GPL-2.0-or-later
// --http PORT: the same server over the SDK's Streamable HTTP transport, on
// the loopback address only, with the SDK's Host-header check against DNS
// rebinding. It is there for clients that speak HTTP and for the MCP
// conformance suite, which tests servers over HTTP only (docs/mcp.md).
// Each session (an initialize request) gets a server of its own.
import { randomUUID } from 'node:crypto';
import { createMcpExpressApp } from '@modelcontextprotocol/sdk/server/express.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';

const HOST = '127.0.0.1';
// Sessions a client never ended (no DELETE) are closed when idle this
// long, or when a new one would make too many: the least recently used.
const MAX_SESSIONS = 16;
const IDLE_MS = 30 * 60 * 1000;

export async function serveHttp(buildServer, port) {
  const app = createMcpExpressApp({ host: HOST });
  const sessions = new Map(); // id -> transport, least recently used first
  const use = (id) => {
    const t = sessions.get(id);
    if (t) {
      sessions.delete(id);
      sessions.set(id, t);
      t.lastActive = Date.now();
    }
    return t;
  };
  const sweep = setInterval(() => {
    for (const t of [...sessions.values()]) if (Date.now() - t.lastActive > IDLE_MS) t.close().catch(() => {});
  }, 60 * 1000);
  sweep.unref();
  const error = (res, status, code, message) =>
    res.status(status).json({ jsonrpc: '2.0', error: { code, message }, id: null });

  app.post('/mcp', async (req, res) => {
    try {
      const id = req.headers['mcp-session-id'];
      const known = id ? use(id) : undefined;
      if (known) {
        await known.handleRequest(req, res, req.body);
        return;
      }
      if (id) return error(res, 404, -32001, 'Session not found');
      if (!isInitializeRequest(req.body)) return error(res, 400, -32000, 'Bad Request: No valid session ID provided');
      while (sessions.size >= MAX_SESSIONS) {
        const [oldest, t] = sessions.entries().next().value;
        sessions.delete(oldest);
        await t.close().catch(() => {});
      }
      const transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (sid) => {
          transport.lastActive = Date.now();
          sessions.set(sid, transport);
        },
      });
      transport.onclose = () => {
        if (transport.sessionId) sessions.delete(transport.sessionId);
      };
      await buildServer().connect(transport);
      await transport.handleRequest(req, res, req.body);
    } catch (e) {
      process.stderr.write(`roceshark-mcp: http: ${e.stack || e}\n`);
      if (!res.headersSent) error(res, 500, -32603, 'Internal server error');
    }
  });
  const bySession = async (req, res) => {
    const id = req.headers['mcp-session-id'];
    const transport = id ? use(id) : undefined;
    if (!transport) return error(res, id ? 404 : 400, -32001, id ? 'Session not found' : 'Missing session ID');
    try {
      await transport.handleRequest(req, res);
    } catch (e) {
      process.stderr.write(`roceshark-mcp: http: ${e.stack || e}\n`);
      if (!res.headersSent) res.status(500).end();
    }
  };
  app.get('/mcp', bySession);
  app.delete('/mcp', bySession);

  await new Promise((resolve, reject) => {
    const listener = app.listen(port, HOST, (e) => {
      if (e) return reject(e);
      // The port on one line of its own: a test or a script reads it.
      process.stderr.write(`roceshark-mcp: listening on http://${HOST}:${listener.address().port}/mcp\n`);
      resolve();
    });
    listener.on('error', reject);
  });
}
