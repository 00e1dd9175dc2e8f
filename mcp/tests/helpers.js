// SPDX-License-Identifier: GPL-2.0-or-later
// The SDK's own client starting the real server over stdio, on the
// repository's bundled captures and the build in ROCESHARK_BUILD.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

export const mcp = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const repo = path.resolve(mcp, '..');
export const captures = path.join(repo, 'captures');
export const build = path.resolve(process.env.ROCESHARK_BUILD || path.join(repo, 'build'));
export const roceshark = path.join(build, 'roceshark');
export const server = path.join(mcp, 'src', 'server.js');

if (!fs.existsSync(roceshark)) throw new Error(`no ${roceshark}: build roceshark (ROCESHARK_BUILD names the build tree)`);

export function tmpdir(prefix) {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

// A connected client; `args` are the server's options (--root... ).
// Its stderr is kept in client.stderrText; TMPDIR is the test's own.
export async function connect(args, { tmp } = {}) {
  const env = { ...process.env, ROCESHARK_BUILD: build };
  if (tmp) env.TMPDIR = tmp;
  const transport = new StdioClientTransport({ command: process.execPath, args: [server, ...args], env, stderr: 'pipe' });
  const client = new Client({ name: 'roceshark-mcp-test', version: '1.0.0' });
  client.stderrText = '';
  transport.stderr.on('data', (b) => (client.stderrText += b.toString()));
  await client.connect(transport);
  client.pid = transport.pid;
  return client;
}

export async function call(client, name, args, timeout = 60000) {
  return client.callTool({ name, arguments: args }, undefined, { timeout });
}

// The text of a tool error.
export function errorText(r) {
  return r.content.map((c) => c.text).join('\n');
}

export function cli(...args) {
  return execFileSync(roceshark, args, { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
}

export function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
