// SPDX-License-Identifier: GPL-2.0-or-later
// mcp.conformance: the MCP conformance suite (@modelcontextprotocol/conformance)
// against the server. The suite tests servers over Streamable HTTP only, so
// the server runs with --http on loopback, the same server as over stdio.
// Scenarios that test features this server does not have are listed,
// each with its reason, in conformance-baseline.yml (docs/mcp.md): the suite
// fails on any other failure, and on a listed scenario that passes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, execFile } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { promisify } from 'node:util';
import { build, captures, mcp, server, tmpdir } from './helpers.js';

const suite = path.join(mcp, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');
const baseline = path.join(mcp, 'tests', 'conformance-baseline.yml');

async function startHttp() {
  const child = spawn(process.execPath, [server, '--root', captures, '--http', '0'], {
    env: { ...process.env, ROCESHARK_BUILD: build },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let err = '';
  const url = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no listening line: ${err}`)), 15000);
    child.stderr.on('data', (b) => {
      err += b.toString();
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(err);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    child.on('exit', (code) => reject(new Error(`server exited (${code}): ${err}`)));
  });
  return { child, url, stderr: () => err };
}

test('the conformance suite passes, but for the baseline\'s explained scenarios', async () => {
  const { child, url, stderr } = await startHttp();
  const cwd = tmpdir('roceshark-mcp-conformance-'); // results/ of a single scenario would go there
  try {
    let out;
    try {
      out = await promisify(execFile)(process.execPath, [suite, 'server', '--url', url, '--expected-failures', baseline], {
        cwd,
        timeout: 120000,
        maxBuffer: 64 * 1024 * 1024,
      });
    } catch (e) {
      assert.fail(`conformance suite failed (exit ${e.code}):\n${e.stdout}\n${e.stderr}\nserver:\n${stderr()}`);
    }
    const summary = out.stdout.split('\n').filter((l) => /^[✓✗] |^Total/.test(l));
    process.stdout.write(`${summary.join('\n')}\n`);
    // The scenarios that apply to this server pass outright.
    for (const scenario of ['server-initialize', 'ping', 'logging-set-level', 'tools-list', 'tools-call-error',
      'resources-list', 'prompts-list', 'server-sse-multiple-streams', 'dns-rebinding-protection'])
      assert.ok(summary.some((l) => l.startsWith(`✓ ${scenario}: `)), `${scenario}: ${summary.join('\n')}`);
  } finally {
    child.kill('SIGTERM');
    fs.rmSync(cwd, { recursive: true, force: true });
  }
});

// The suite's dns-rebinding-protection scenario checks this too; here it
// is checked whatever the suite's version.
test('over HTTP, a request naming another host is refused (DNS rebinding)', async () => {
  const { child, url } = await startHttp();
  const post = (host) =>
    new Promise((resolve, reject) => {
      const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' });
      const req = http.request(url, {
        method: 'POST',
        headers: { host, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode));
      });
      req.on('error', reject);
      req.end(body);
    });
  try {
    assert.equal(await post('evil.example'), 403);
    assert.equal(await post(new URL(url).host), 400); // past the check: no session yet
  } finally {
    child.kill('SIGTERM');
  }
});
