// SPDX-License-Identifier: GPL-2.0-or-later
// mcp.safety: path escapes, hostile arguments, a corrupt capture, outputs
// over the limits and a timeout each give a tool error, and the server
// keeps serving.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { alive, call, captures, connect, errorText, repo, tmpdir } from './helpers.js';

const demo = path.join(captures, 'demo.pcapng');

// A tool error whose text matches `re`.
async function refused(client, name, args, re) {
  const r = await call(client, name, args);
  assert.equal(r.isError, true, `${name} ${JSON.stringify(args)} was not refused: ${JSON.stringify(r.structuredContent)?.slice(0, 200)}`);
  assert.match(errorText(r), re);
  return errorText(r);
}

async function stillServing(client) {
  const r = await call(client, 'explain', { check: 'loss' });
  assert.ok(!r.isError, errorText(r));
  assert.equal(r.structuredContent.id, 'loss');
  assert.ok(alive(client.pid));
}

describe('paths and arguments', () => {
  let client;
  let root;
  let out;
  let elsewhere;
  before(async () => {
    root = tmpdir('roceshark-mcp-root-');
    out = tmpdir('roceshark-mcp-out-');
    elsewhere = tmpdir('roceshark-mcp-elsewhere-');
    fs.copyFileSync(path.join(captures, 'clean.pcapng'), path.join(root, 'clean.pcapng'));
    fs.symlinkSync(path.join(repo, 'README.md'), path.join(root, 'out.pcapng'));
    fs.symlinkSync('/etc', path.join(root, 'etc'));
    fs.symlinkSync('clean.pcapng', path.join(root, 'inside.pcapng'));
    fs.mkdirSync(path.join(root, 'dir'));
    execFileSync('mkfifo', [path.join(root, 'fifo.pcapng')]);
    fs.symlinkSync(path.join(elsewhere, 'x.json'), path.join(out, 'link.json'));
    fs.symlinkSync(elsewhere, path.join(out, 'sub'));
    // A corrupt capture: pcapng's magic, then garbage; one that is not a
    // capture at all; and the demo cut short in the middle of a block.
    const junk = Buffer.alloc(4096, 0x5a);
    fs.writeFileSync(path.join(root, 'corrupt.pcapng'), Buffer.concat([Buffer.from([0x0a, 0x0d, 0x0d, 0x0a]), junk]));
    fs.writeFileSync(path.join(root, 'text.pcapng'), 'not a capture at all\n');
    fs.writeFileSync(path.join(root, 'notreport.json'), '{"schema": "something else"}');
    const whole = fs.readFileSync(demo);
    fs.writeFileSync(path.join(root, 'cut.pcapng'), whole.subarray(0, Math.floor(whole.length / 2) + 7));
    client = await connect(['--root', root, '--output', out]);
  });
  after(async () => {
    await client?.close();
    for (const d of [root, out, elsewhere]) fs.rmSync(d, { recursive: true, force: true });
  });

  test('.. , absolute paths and symlinks out of the roots are refused', async () => {
    await refused(client, 'triage', { files: ['../README.md'] }, /'\.\.' leads outside/);
    await refused(client, 'triage', { files: ['dir/../../x.pcapng'] }, /'\.\.' leads outside/);
    await refused(client, 'triage', { files: ['/etc/passwd'] }, /outside the allowed directories/);
    await refused(client, 'triage', { files: [demo] }, /outside the allowed directories/);
    await refused(client, 'triage', { files: ['out.pcapng'] }, /symlink leads outside/);
    await refused(client, 'triage', { files: [path.join(root, 'out.pcapng')] }, /symlink leads outside/);
    await refused(client, 'triage', { files: ['etc/passwd'] }, /symlink leads outside/);
    await refused(client, 'view', { view: 'qp', files: ['clean.pcapng', '../x'] }, /'\.\.' leads outside/);
    await refused(client, 'frames', { file: '/proc/self/environ', filter: 'frame' }, /outside the allowed/);
    await refused(client, 'compare', { before: 'clean.pcapng', after: '../../etc/shadow' }, /'\.\.' leads outside/);
    await refused(client, 'triage', { files: ['missing.pcapng'] }, /no such file/);
    await refused(client, 'triage', { files: ['a\0b'] }, /NUL/);
    // Inside the root, a symlink that stays inside is fine.
    const r = await call(client, 'triage', { files: ['inside.pcapng'] });
    assert.ok(!r.isError, errorText(r));
    await stillServing(client);
  });

  test('directories and FIFOs are not read', async () => {
    await refused(client, 'triage', { files: ['dir'] }, /not a regular file/);
    await refused(client, 'triage', { files: ['.'] }, /not a regular file/);
    await refused(client, 'triage', { files: ['fifo.pcapng'] }, /not a regular file/);
  });

  test('nothing is written but under --output, never through a symlink', async () => {
    await refused(client, 'triage', { files: ['clean.pcapng'], save_report: '../x.json' }, /leads outside the output/);
    await refused(client, 'triage', { files: ['clean.pcapng'], save_report: path.join(out, 'a.json') }, /relative/);
    await refused(client, 'triage', { files: ['clean.pcapng'], save_report: 'x.txt' }, /\.json/);
    await refused(client, 'triage', { files: ['clean.pcapng'], save_report: 'link.json' }, /symlink/);
    await refused(client, 'triage', { files: ['clean.pcapng'], save_report: 'sub/x.json' }, /symlink leads outside/);
    await refused(client, 'triage', { files: ['clean.pcapng'], save_report: 'nodir/x.json' }, /does not exist/);
    assert.deepEqual(fs.readdirSync(elsewhere), []);
    const r = await call(client, 'triage', { files: ['clean.pcapng'], save_report: 'ok.json' });
    assert.ok(!r.isError, errorText(r));
    assert.equal(r.structuredContent.saved_report, 'ok.json');
    assert.equal(JSON.parse(fs.readFileSync(path.join(out, 'ok.json'), 'utf8')).schema, 'roceshark-report');
  });

  test('hostile arguments are tool errors', async () => {
    await refused(client, 'view', { view: 'secrets', files: ['clean.pcapng'] }, /view/);
    await refused(client, 'triage', { files: [] }, /files/);
    await refused(client, 'triage', { files: 'clean.pcapng' }, /files/);
    await refused(client, 'triage', { files: Array(17).fill('clean.pcapng') }, /files/);
    await refused(client, 'triage', { files: ['clean.pcapng'], options: { 'x; rm -rf /': 1 } }, /Invalid key/);
    await refused(client, 'triage', { files: ['clean.pcapng'], options: { no_such_pref: 1 } }, /no_such_pref/);
    await refused(client, 'triage', { files: ['clean.pcapng'], options: { storm_ms: 'many' } }, /storm_ms/);
    await refused(client, 'triage', { files: ['clean.pcapng'], options: { storm_ms: '5\n-o x' } }, /control characters/);
    await refused(client, 'frames', { file: 'demo.pcapng', filter: 'frame', fields: ['-Y'] }, /field name/);
    await refused(client, 'frames', { file: 'clean.pcapng', filter: 'roce.no_such_field_at_all' }, /tshark failed/);
    await refused(client, 'frames', { file: 'clean.pcapng', filter: '((' }, /tshark failed/);
    await refused(client, 'frames', { file: 'demo.pcapng', filter: 'frame', finding: '1' }, /exactly one/);
    await refused(client, 'frames', { file: 'clean.pcapng' }, /exactly one/);
    await refused(client, 'frames', { file: 'clean.pcapng', finding: '99' }, /no finding/);
    await refused(client, 'explain', { check: 'no_such_check' }, /no check "no_such_check"; the checks are: pfc_storm/);
    await refused(client, 'compare', { before: 'notreport.json', after: 'clean.pcapng' }, /roce-compare failed: .*not a roceshark report/);
    const r = await client.callTool({ name: 'no_such_tool', arguments: {} }).catch((e) => ({ thrown: e }));
    assert.ok(r.thrown || r.isError);
    await stillServing(client);
  });

  test('a corrupt capture is a tool error; a capture cut short is analysed up to the cut', async () => {
    await refused(client, 'triage', { files: ['corrupt.pcapng'] }, /could not analyse corrupt\.pcapng/);
    await refused(client, 'triage', { files: ['text.pcapng'] }, /could not analyse text\.pcapng/);
    await refused(client, 'compare', { before: 'corrupt.pcapng', after: 'clean.pcapng' }, /could not analyse/);
    await refused(client, 'frames', { file: 'corrupt.pcapng', filter: 'frame' }, /tshark failed/);
    const r = await call(client, 'triage', { files: ['cut.pcapng'] });
    assert.ok(!r.isError, errorText(r));
    assert.match(r.structuredContent.warnings.join(' '), /cut short/);
    await stillServing(client);
  });
});

describe('limits', () => {
  test('outputs and inputs over the limits are tool errors', async () => {
    const client = await connect(['--root', captures, '--max-output-mb', '0.01', '--max-result-kb', '2', '--max-input-mb', '3']);
    try {
      // The report of mp_drop is 16 kB, over 10 KiB; clean's 6 kB is not.
      await refused(client, 'view', { view: 'hops', files: ['mp_drop.pcapng'] }, /output over the limit of 10485 bytes/);
      // tshark's output too.
      await refused(client, 'frames', { file: 'demo.pcapng', filter: 'frame', fields: ['frame.number', 'frame.protocols', 'eth.src', 'eth.dst', 'ip.src', 'ip.dst'], limit: 1000 },
        /output over the limit/);
      // explain's answer (with its docs section) is over 2 KiB.
      await refused(client, 'explain', { check: 'pfc_storm' }, /result is \d+ bytes, over the limit/);
      // The demo is 2.5 MB: twice is over 3 MiB.
      await refused(client, 'triage', { files: ['demo.pcapng', 'demo.pcapng'] }, /over the limit of 3145728/);
      const r = await call(client, 'triage', { files: ['clean.pcapng'], max_findings: 1 });
      assert.ok(!r.isError, errorText(r));
      assert.ok(alive(client.pid));
    } finally {
      await client.close();
    }
  });

  test('a call over the time limit is stopped, its processes and files gone, and the server serves on', async () => {
    const tmp = tmpdir('roceshark-mcp-tmp-');
    fs.chmodSync(tmp, 0o711); // tshark runs as nobody under root: it must reach its directory inside
    const client = await connect(['--root', captures, '--timeout', '0.3'], { tmp });
    try {
      const started = Date.now();
      // tshark alone takes longer than 0.3 s to start; -2 reads the demo twice.
      await refused(client, 'frames', { file: 'demo.pcapng', filter: 'roce.hop.lost_after' }, /time limit/);
      assert.ok(Date.now() - started < 5000, `took ${Date.now() - started} ms`);
      await new Promise((r) => setTimeout(r, 300));
      assert.deepEqual(fs.readdirSync(tmp), [], 'the call\'s scratch directory is removed');
      // No process of the call is left (their environment names its TMPDIR).
      for (const pid of fs.readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
        let env;
        try {
          env = fs.readFileSync(`/proc/${pid}/environ`, 'latin1');
        } catch {
          continue;
        }
        if (Number(pid) !== client.pid) assert.ok(!env.includes(`TMPDIR=${tmp}/`), `process ${pid} left over`);
      }
      await stillServing(client);
    } finally {
      await client.close();
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  });
});
