// SPDX-License-Identifier: GPL-2.0-or-later
// mcp.client: the SDK's client starts the server over stdio, lists its
// tools and resources and calls each tool on the bundled captures; the
// answers are the roceshark command's own.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { call, captures, cli, connect, errorText, tmpdir } from './helpers.js';

let client;
let out;
before(async () => {
  out = tmpdir('roceshark-mcp-out-');
  client = await connect(['--root', captures, '--output', out]);
});
after(async () => {
  await client?.close();
  fs.rmSync(out, { recursive: true, force: true });
});

test('lists its tools, each with an input and an output schema; no monitor yet', async () => {
  const { tools } = await client.listTools();
  const names = tools.map((t) => t.name).sort();
  assert.deepEqual(names, ['compare', 'explain', 'frames', 'triage', 'view']);
  for (const t of tools) {
    assert.equal(t.inputSchema.type, 'object', t.name);
    assert.equal(t.outputSchema?.type, 'object', t.name);
    assert.ok(t.description.length > 50, t.name);
  }
  const info = client.getServerVersion();
  assert.equal(info.name, 'roceshark-mcp');
  assert.match(client.getInstructions(), /triage/);
});

test('the docs are resources to cite', async () => {
  const { resources } = await client.listResources();
  const uris = resources.map((r) => r.uri);
  for (const u of ['roceshark://docs/triage.md', 'roceshark://docs/report-schema.json', 'roceshark://docs/analysis.md',
    'roceshark://docs/mcp.md', 'roceshark://docs/README.md', 'roceshark://catalogue/checks.json'])
    assert.ok(uris.includes(u), u);
  const schema = await client.readResource({ uri: 'roceshark://docs/report-schema.json' });
  assert.equal(JSON.parse(schema.contents[0].text).properties.schema.const, 'roceshark-report');
  const cat = await client.readResource({ uri: 'roceshark://catalogue/checks.json' });
  assert.ok(JSON.parse(cat.contents[0].text).checks.length > 30);
});

test('the prompt asks for the whole round in words', async () => {
  const { prompts } = await client.listPrompts();
  assert.deepEqual(prompts.map((p) => p.name), ['investigate']);
  const p = await client.getPrompt({ name: 'investigate', arguments: { files: 'demo.pcapng' } });
  assert.match(p.messages[0].content.text, /demo\.pcapng.*triage.*explain.*frames/s);
});

test('triage on the demo returns the PFC storm first, as `roceshark triage` does', async () => {
  const r = await call(client, 'triage', { files: ['demo.pcapng'] });
  assert.ok(!r.isError, errorText(r));
  const s = r.structuredContent;
  assert.equal(s.findings[0].kind, 'pfc_storm');
  assert.equal(s.findings[0].rank, 1);
  // The command's screen shows the same first finding, the same verdict.
  const screen = cli('triage', path.join(captures, 'demo.pcapng'));
  const first = screen.split('\n').find((l) => l.startsWith('#1 '));
  assert.ok(first.includes('pfc_storm') && first.includes(s.findings[0].title), first);
  // And the report is the command's, whole: the same findings, health and summary.
  const report = JSON.parse(cli('report', path.join(captures, 'demo.pcapng')));
  assert.deepEqual(s.findings, report.triage.findings.slice(0, 20));
  assert.equal(s.findings_total, report.triage.findings.length);
  assert.deepEqual(s.health, report.triage.health);
  assert.equal(s.summary, report.triage.summary);
  assert.equal(s.verdict, report.triage.health.verdict);
  assert.deepEqual(s.warnings, []);
});

test('triage saves the report only under --output, and compare reads it back', async () => {
  const r = await call(client, 'triage', { files: ['clean.pcapng'], max_findings: 1, save_report: 'clean.json' });
  assert.ok(!r.isError, errorText(r));
  assert.ok(r.structuredContent.findings.length <= 1);
  const saved = JSON.parse(fs.readFileSync(path.join(out, 'clean.json'), 'utf8'));
  assert.equal(saved.schema, 'roceshark-report');
  // A saved report against a capture: the demo's storm is new.
  const c = await call(client, 'compare', { before: path.join(out, 'clean.json'), after: 'demo.pcapng' });
  assert.ok(!c.isError, errorText(c));
  const cmp = c.structuredContent;
  assert.equal(cmp.before.source, path.join(out, 'clean.json'));
  assert.equal(cmp.after.source, 'demo.pcapng');
  assert.ok(cmp.findings.some((f) => f.kind === 'pfc_storm' && f.status === 'new'));
  assert.equal(cmp.conclusion.regressed, true);
});

test('compare of two captures: what the fix removed', async () => {
  const c = await call(client, 'compare', { before: 'demo.pcapng', after: 'clean.pcapng' });
  assert.ok(!c.isError, errorText(c));
  const cmp = c.structuredContent;
  assert.ok(cmp.findings.some((f) => f.kind === 'pfc_storm' && f.status === 'fixed'));
  assert.ok(['improved', 'mixed'].includes(cmp.conclusion.overall), cmp.conclusion.text);
});

test('view: qp, pfc, qos and hops are the report\'s sections, bounded', async () => {
  const report = JSON.parse(cli('report', path.join(captures, 'multipoint.pcapng')));
  for (const [view, sections] of [['qp', ['qps', 'paths']], ['pfc', ['pfc']], ['qos', ['qos']],
    ['hops', ['hops', 'clocks', 'ecn_thresholds']]]) {
    const r = await call(client, 'view', { view, files: ['multipoint.pcapng'], limit: 10000 });
    assert.ok(!r.isError, errorText(r));
    for (const s of sections) assert.deepEqual(r.structuredContent.data[s], report[s], `${view}: ${s}`);
    assert.deepEqual(r.structuredContent.truncated, []);
  }
  assert.ok(report.hops.length > 0);
  const r = await call(client, 'view', { view: 'qp', files: ['multipoint.pcapng'], limit: 1 });
  const s = r.structuredContent;
  assert.equal(s.data.qps.length, 1);
  assert.ok(s.truncated.some((t) => t.path === 'qps' && t.total === report.qps.length && t.kept === 1));
});

test('frames: the evidence of a finding, and of any display filter', async () => {
  const report = JSON.parse(cli('report', path.join(captures, 'demo.pcapng')));
  const storm = report.triage.findings[0];
  const r = await call(client, 'frames', { file: 'demo.pcapng', finding: '1', limit: 5 });
  assert.ok(!r.isError, errorText(r));
  const s = r.structuredContent;
  assert.equal(s.filter, storm.evidence.filter);
  assert.equal(s.finding.id, storm.id);
  assert.equal(s.count, 5);
  assert.equal(s.more, true);
  assert.deepEqual(s.frames.map((f) => Number(f['frame.number'])), storm.evidence.frames.slice(0, 5));
  const byId = await call(client, 'frames', { file: 'demo.pcapng', finding: storm.id, limit: 1 });
  assert.equal(byId.structuredContent.frames[0]['frame.number'], String(storm.evidence.frames[0]));

  const f = await call(client, 'frames', {
    file: 'demo.pcapng', filter: 'frame.number <= 3', fields: ['frame.number', 'eth.src'], limit: 10,
  });
  assert.ok(!f.isError, errorText(f));
  assert.deepEqual(f.structuredContent.frames.map((x) => x['frame.number']), ['1', '2', '3']);
  assert.equal(f.structuredContent.more, false);
  assert.deepEqual(Object.keys(f.structuredContent.frames[0]), ['frame.number', 'eth.src']);
});

test('explain: the catalogue\'s row, fix and docs section', async () => {
  const r = await call(client, 'explain', { check: 'pfc_storm' });
  assert.ok(!r.isError, errorText(r));
  const s = r.structuredContent;
  assert.equal(s.id, 'pfc_storm');
  assert.equal(s.severity, 'error');
  assert.match(s.fix, /PFC watchdog/);
  assert.equal(s.filter, 'roce.pfc.storm && roce.point == {point} && eth.src == {mac} && roce.pfc.priority == {priority}');
  assert.equal(s.fields[0].abbrev, 'roce.pfc.storm');
  assert.match(s.docs_section, /^## Kinds/);
  // A finding id works too, and every row of docs/triage.md's table is known.
  const report = JSON.parse(cli('report', path.join(captures, 'demo.pcapng')));
  const byFinding = await call(client, 'explain', { check: report.triage.findings[0].id });
  assert.equal(byFinding.structuredContent.id, 'pfc_storm');
  const table = fs.readFileSync(path.join(captures, '..', 'docs', 'triage.md'), 'utf8');
  const kinds = [...table.matchAll(/^\| \[`([a-z_]+)`\]/gm)].map((m) => m[1]);
  assert.ok(kinds.length > 30);
  for (const k of kinds) {
    const e = await call(client, 'explain', { check: k });
    assert.ok(!e.isError && e.structuredContent.fix.length > 40, k);
  }
});
