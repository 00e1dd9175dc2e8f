#!/usr/bin/env node
// SPDX-License-Identifier: GPL-2.0-or-later
// roceshark-mcp: an MCP server that lets an AI assistant run roceshark's
// analyses on the user's captures and cite its docs (docs/mcp.md).
//
//   node mcp/src/server.js --root DIR [--root DIR]... [--output DIR]
//        [--build DIR] [--timeout S] [--max-input-mb N] [--max-output-mb N]
//        [--max-result-kb N] [--http PORT]
//
// Over stdio by default; --http PORT serves the same on
// http://127.0.0.1:PORT/mcp (Streamable HTTP, loopback only).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { Places } from './paths.js';
import { Tools, cleanup } from './tools.js';
import { documents, loadCatalogue, titleOf } from './docs.js';
import { killAll } from './run.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '..', '..');
const pkg = JSON.parse(fs.readFileSync(path.join(here, '..', 'package.json'), 'utf8'));

const USAGE = `usage: roceshark-mcp --root DIR [--root DIR]... [--output DIR] [--build DIR]
         [--timeout SECONDS] [--max-input-mb N] [--max-output-mb N] [--max-result-kb N] [--http PORT]
  --root DIR        captures are read only under these directories (one at least)
  --output DIR      triage's save_report writes only here (nothing is written without it)
  --build DIR       roceshark's build tree (default: $ROCESHARK_BUILD, else build/ beside mcp/)
  --timeout S       time limit of one tool call, in seconds (default 120)
  --max-input-mb N  the captures of one call add up to at most N MiB (default 4096)
  --max-output-mb N a program's output (the report JSON, tshark's fields) at most N MiB (default 256)
  --max-result-kb N a tool's result at most N KiB (default 1024)
  --http PORT       serve Streamable HTTP on 127.0.0.1:PORT/mcp instead of stdio (0: any free port)
`;

function fail(msg) {
  process.stderr.write(`roceshark-mcp: ${msg}\n${USAGE}`);
  process.exit(2);
}

function number(v, name, min) {
  const n = Number(v);
  if (!Number.isFinite(n) || n < min) fail(`${name} ${v}: expected a number, at least ${min}`);
  return n;
}

let args;
try {
  args = parseArgs({
    options: {
      root: { type: 'string', multiple: true, default: [] },
      output: { type: 'string' },
      build: { type: 'string' },
      timeout: { type: 'string', default: '120' },
      'max-input-mb': { type: 'string', default: '4096' },
      'max-output-mb': { type: 'string', default: '256' },
      'max-result-kb': { type: 'string', default: '1024' },
      http: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
      version: { type: 'boolean' },
    },
    strict: true,
  }).values;
} catch (e) {
  fail(e.message);
}
if (args.help) {
  process.stdout.write(USAGE);
  process.exit(0);
}
if (args.version) {
  process.stdout.write(`roceshark-mcp ${pkg.version}\n`);
  process.exit(0);
}

const build = path.resolve(args.build || process.env.ROCESHARK_BUILD || path.join(repo, 'build'));
let places;
try {
  places = await new Places(args.root, args.output).init();
} catch (e) {
  fail(e.message);
}
const roceshark = path.join(build, 'roceshark');
if (!fs.existsSync(roceshark)) process.stderr.write(`roceshark-mcp: warning: no ${roceshark}: build roceshark first; tools will fail\n`);

// The catalogue is read when asked for, so a rebuild needs no restart.
const cfg = {
  repo,
  build,
  roceshark,
  rsTshark: path.join(repo, 'scripts', 'rs-tshark'),
  compare: path.join(repo, 'scripts', 'roce-compare'),
  places,
  timeoutMs: number(args.timeout, '--timeout', 0.001) * 1000,
  maxInputBytes: Math.floor(number(args['max-input-mb'], '--max-input-mb', 0) * 1024 * 1024),
  maxOutputBytes: Math.floor(number(args['max-output-mb'], '--max-output-mb', 0.001) * 1024 * 1024),
  maxResultBytes: Math.floor(number(args['max-result-kb'], '--max-result-kb', 1) * 1024),
  catalogue: () => loadCatalogue(build),
};
const tools = new Tools(cfg);

const INSTRUCTIONS =
  'roceshark analyses RoCE (RDMA over Converged Ethernet) packet captures for misconfigurations: PFC storms, ' +
  'lossy queues, DSCP rewrites, ECN and DCQCN problems, MTU, losses between capture points. Start with `triage` ' +
  'on the user\'s capture files; `explain` a finding\'s kind before giving its fix; show evidence with `frames`; ' +
  'use `view` for the per-QP, PFC, QoS or per-hop detail; `compare` a capture before and after a change. Files ' +
  `are read only under: ${places.describe().roots.join(', ')}. The docs are resources (roceshark://docs/...).`;

function buildServer() {
  const server = new McpServer(
    { name: 'roceshark-mcp', title: 'roceshark', version: pkg.version },
    { instructions: INSTRUCTIONS, capabilities: { logging: {} } },
  );
  tools.register(server);
  for (const d of documents(repo)) {
    server.registerResource(
      d.name,
      d.uri,
      { title: titleOf(d.file), mimeType: d.mimeType, description: `roceshark's ${d.name}` },
      async (uri) => ({ contents: [{ uri: uri.href, mimeType: d.mimeType, text: fs.readFileSync(d.file, 'utf8') }] }),
    );
  }
  server.registerResource(
    'checks.json',
    'roceshark://catalogue/checks.json',
    {
      title: 'The check catalogue',
      mimeType: 'application/json',
      description: 'Every check roceshark reports: id, severity, evidence filter, fields, expert infos, docs and fix (built from epan-ext/common/checks.h)',
    },
    async (uri) => {
      const cat = cfg.catalogue();
      if (!cat) throw new Error(`no check catalogue in ${build}: build roceshark first`);
      return { contents: [{ uri: uri.href, mimeType: 'application/json', text: fs.readFileSync(cat.file, 'utf8') }] };
    },
  );
  // The question in words, as a client's prompt (a slash command in some).
  server.registerPrompt(
    'investigate',
    {
      title: 'Investigate RoCE captures',
      description: 'Ask the assistant to triage captures with roceshark, explain the top findings with their evidence and fixes.',
      argsSchema: {
        files: z.string().describe('The capture file names, comma-separated, under the allowed directories'),
        question: z.string().optional().describe('What to look for, in words (optional)'),
      },
    },
    ({ files, question }) => ({
      messages: [
        {
          role: 'user',
          content: {
            type: 'text',
            text:
              `Analyse these RoCE captures with roceshark: ${files}.${question ? ` ${question}` : ''} ` +
              'Call triage on them first. For each of the top findings, call explain on its kind, show a few ' +
              'evidence frames with frames, and say what it cost (impact), where it is and what to change (its fix). ' +
              'End with the health verdict. Cite the docs (roceshark://docs/...) where they explain a finding.',
          },
        },
      ],
    }),
  );
  return server;
}

// Nothing that goes wrong in one call may end the server.
process.on('uncaughtException', (e) => process.stderr.write(`roceshark-mcp: uncaught: ${e.stack || e}\n`));
process.on('unhandledRejection', (e) => process.stderr.write(`roceshark-mcp: unhandled: ${e?.stack || e}\n`));
const stop = () => {
  killAll();
  cleanup();
  process.exit(0);
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);

if (args.http !== undefined) {
  const { serveHttp } = await import('./http.js');
  await serveHttp(buildServer, number(args.http, '--http', 0));
} else {
  const server = buildServer();
  const transport = new StdioServerTransport();
  transport.onclose = stop;
  process.stdin.on('end', stop);
  await server.connect(transport);
}
