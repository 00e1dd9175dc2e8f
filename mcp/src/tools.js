// SPDX-License-Identifier: GPL-2.0-or-later
// The tools. Each runs roceshark's own programs (the `roceshark` command,
// tshark with the plugin through scripts/rs-tshark, scripts/roce-compare)
// and returns their JSON, picked apart per tool: the server analyses
// nothing itself.
import fsSync from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { run, reason, ToolError } from './run.js';
import { Places } from './paths.js';
import { section } from './docs.js';

const MAX_FILES = 16;
const VIEWS = ['qp', 'pfc', 'qos', 'hops'];
// The sections of the report (docs/report-schema.json) each view shows.
const VIEW_SECTIONS = {
  qp: ['qps', 'paths'],
  pfc: ['pfc'],
  qos: ['qos'],
  hops: ['hops', 'clocks', 'ecn_thresholds'],
};
const DEFAULT_FIELDS = [
  'frame.number', 'frame.time_relative', 'roce.point', 'eth.src', 'eth.dst', 'ip.src', 'ip.dst', 'ipv6.src',
  'ipv6.dst', 'vlan.id', 'vlan.priority', 'ip.dsfield.dscp', 'infiniband.bth.opcode', 'infiniband.bth.destqp',
  'infiniband.bth.psn', '_ws.col.Info',
];
// Fields known only on tshark's second pass (checks.h: "known on later passes").
const SECOND_PASS = /roce\.hop\.(lost_after|too_big)/;

// --- inputs ---------------------------------------------------------------

const files = z
  .array(z.string().min(1).max(4096))
  .min(1)
  .max(MAX_FILES)
  .describe(
    'Captures (pcapng, pcap, gzip, ERF), under an allowed directory: relative to one, or absolute inside one. ' +
      'Several files are read as `mergecap -I none` merges them, each file\'s interfaces its own capture points.',
  );
const options = z
  .record(
    z.string().regex(/^(roce\.)?[a-z0-9_]+$/, 'a roce.* preference name'),
    z.union([z.string().max(256), z.number(), z.boolean()]),
  )
  .optional()
  .describe(
    'roce.* preferences, as `-o roce.NAME:VALUE` takes them: {"clock": "estimate", "storm_ms": 5} ' +
      '(README, Preferences). Unknown names or bad values are an error.',
  );

// --- outputs: the parts of the report that matter, the rest passes --------

const loose = (shape = {}) => z.looseObject(shape);
const finding = loose({
  rank: z.number(),
  id: z.string(),
  kind: z.string(),
  severity: z.string(),
  title: z.string(),
  fix: z.string(),
  evidence: loose({ count: z.number(), filter: z.string() }),
});
const health = loose({ verdict: z.string(), metrics: z.array(loose()) });

// --- helpers --------------------------------------------------------------

function prefArgs(opts) {
  const out = [];
  for (const [k, v] of Object.entries(opts || {})) {
    const value = String(v);
    if (/[\0-\x1f]/.test(value)) throw new ToolError(`option ${k}: control characters are not allowed`);
    out.push('-o', `${k.startsWith('roce.') ? k : `roce.${k}`}:${value}`);
  }
  return out;
}

// Keeps arrays to `limit` items, saying which were cut and from how many.
function bound(value, limit, where, cut) {
  if (Array.isArray(value)) {
    if (value.length > limit) cut.push({ path: where, total: value.length, kept: limit });
    return value.slice(0, limit).map((v, i) => bound(v, limit, `${where}[${i}]`, cut));
  }
  if (value && typeof value === 'object') {
    const out = {};
    for (const [k, v] of Object.entries(value)) out[k] = bound(v, limit, where ? `${where}.${k}` : k, cut);
    return out;
  }
  return value;
}

// The calls' scratch directories, removed by cleanup() when the server stops mid-call.
const scratchDirs = new Set();
export function cleanup() {
  for (const d of scratchDirs) fsSync.rmSync(d, { recursive: true, force: true });
}

function textOf(obj) {
  return JSON.stringify(obj, null, 1);
}

export class Tools {
  constructor(cfg) {
    this.cfg = cfg; // {repo, build, roceshark, rsTshark, compare, places, timeoutMs, maxOutputBytes, maxInputBytes, maxResultBytes, catalogue}
  }

  // One call's scratch directory (children's TMPDIR: rs-tshark's copies,
  // compare's reports), removed when the call ends. 0711: tshark runs as
  // nobody under root and must reach its own directory inside.
  async withCall(fn) {
    const scratch = await fs.mkdtemp(path.join(os.tmpdir(), 'roceshark-mcp-'));
    scratchDirs.add(scratch);
    try {
      await fs.chmod(scratch, 0o711);
      return await fn({ scratch, deadline: Date.now() + this.cfg.timeoutMs });
    } finally {
      await fs.rm(scratch, { recursive: true, force: true }).catch(() => {});
      scratchDirs.delete(scratch);
    }
  }

  env(call) {
    return { ...process.env, TMPDIR: call.scratch, ROCESHARK_BUILD: this.cfg.build, LC_ALL: 'C' };
  }

  async inputs(list) {
    const out = [];
    for (const f of list) out.push(await this.cfg.places.input(f));
    const total = out.reduce((n, f) => n + f.size, 0);
    if (total > this.cfg.maxInputBytes)
      throw new ToolError(`the files add up to ${total} bytes, over the limit of ${this.cfg.maxInputBytes} (--max-input-mb)`);
    return out;
  }

  // `roceshark report FILES`: the whole report, parsed, and its warnings.
  async report(call, inputs, opts) {
    const args = [...prefArgs(opts), 'report', ...inputs.map((f) => f.path)];
    const r = await run(this.cfg.roceshark, args, {
      deadline: call.deadline,
      maxBytes: this.cfg.maxOutputBytes,
      env: this.env(call),
      what: 'roceshark report',
    });
    const warnings = [];
    if (r.code === 1) warnings.push(`a file was cut short: the report covers what came before the cut (${reason(r.stderr)})`);
    else if (r.code !== 0)
      throw new ToolError(`roceshark could not analyse ${inputs.map((f) => f.name).join(', ')}: ${reason(r.stderr)}` +
        (r.signal ? ` (ended by ${r.signal})` : ''));
    let doc;
    try {
      doc = JSON.parse(r.stdout.toString('utf8'));
    } catch (e) {
      throw new ToolError(`roceshark printed no JSON report (${e.message})`);
    }
    if (!doc || doc.schema !== 'roceshark-report' || !doc.triage)
      throw new ToolError('roceshark printed something other than a roceshark-report');
    if (Array.isArray(doc.limits) && doc.limits.length)
      warnings.push(`analysis limits reached (${doc.limits.map((l) => l.preference || l.name).join(', ')}): the report covers only the part analysed`);
    return { doc, raw: r.stdout, warnings };
  }

  // A tool result: the structured content and the same as text, refused
  // when it is over the result limit.
  result(structured, summary) {
    const text = textOf(structured);
    if (Buffer.byteLength(text) > this.cfg.maxResultBytes)
      throw new ToolError(`the result is ${Buffer.byteLength(text)} bytes, over the limit of ${this.cfg.maxResultBytes} (--max-result-kb): ask for fewer rows (limit) or fewer fields`);
    return { content: [{ type: 'text', text: summary ? `${summary}\n\n${text}` : text }], structuredContent: structured };
  }

  // --- the tools ----------------------------------------------------------

  register(server) {
    const ro = { readOnlyHint: true, destructiveHint: false, openWorldHint: false };
    const guard = (fn) => async (args) => {
      try {
        return await fn(args);
      } catch (e) {
        if (e instanceof ToolError) return { content: [{ type: 'text', text: e.message }], isError: true };
        process.stderr.write(`roceshark-mcp: ${e.stack || e}\n`);
        return { content: [{ type: 'text', text: `internal error: ${e.message}` }], isError: true };
      }
    };

    server.registerTool(
      'triage',
      {
        title: 'Triage RoCE captures',
        description:
          'Runs roceshark\'s triage on captures: the ranked findings (what cost the GPUs the most time first, each ' +
          'with where, impact, evidence filter and fix), the health baseline with its verdict (PASS, WARN, FAIL) and ' +
          'the summary. The same as `roceshark triage`, from its JSON report (docs/report-schema.json).',
        inputSchema: {
          files,
          options,
          max_findings: z.number().int().min(1).max(500).default(20).describe('At most this many findings, the top ranked.'),
          save_report: z
            .string()
            .optional()
            .describe('Also save the whole report JSON under the server\'s --output directory, by this name (NAME.json).'),
        },
        outputSchema: loose({
          files: z.array(z.string()),
          verdict: z.string(),
          summary: z.string(),
          findings: z.array(finding),
          findings_total: z.number(),
          health,
          warnings: z.array(z.string()),
        }),
        annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
      },
      guard((a) => this.triage(a)),
    );

    server.registerTool(
      'view',
      {
        title: 'One of roceshark\'s views',
        description:
          'The report sections behind one view: qp (per-QP flows: qps, paths), pfc (pause episodes, storms, ' +
          'propagation, lossy queues, bad PFC frames), qos (policy, marking, violations, DCBX) or hops (per-hop ' +
          'latency, loss and marking between capture points, clocks, ECN thresholds). Lists are cut to `limit` items; ' +
          '`truncated` says which and from how many.',
        inputSchema: {
          view: z.enum(VIEWS).describe('qp, pfc, qos or hops'),
          files,
          options,
          limit: z.number().int().min(1).max(10000).default(100).describe('At most this many items in any list.'),
        },
        outputSchema: loose({
          view: z.string(),
          files: z.array(z.string()),
          capture: loose(),
          points: z.array(loose()),
          data: loose(),
          truncated: z.array(loose({ path: z.string(), total: z.number(), kept: z.number() })),
          warnings: z.array(z.string()),
        }),
        annotations: ro,
      },
      guard((a) => this.view(a)),
    );

    server.registerTool(
      'frames',
      {
        title: 'Evidence frames',
        description:
          'The frames behind a finding (its evidence display filter, from the triage of the same file) or behind any ' +
          'Wireshark display filter, read by tshark with the roceshark plugin: chosen fields per frame, at most ' +
          '`limit` frames. Give exactly one of `finding` (a finding id from triage, its rank, or a check kind: its ' +
          'first finding) and `filter`. roce.* fields are the plugin\'s (explain lists each check\'s).',
        inputSchema: {
          file: z.string().min(1).max(4096).describe('One capture under an allowed directory.'),
          finding: z.string().max(1000).optional().describe('A finding id (`kind|place`), a rank ("1") or a check kind ("pfc_storm").'),
          filter: z.string().max(4000).optional().describe('A display filter, e.g. "roce.seq.retransmission && roce.point == 1".'),
          fields: z
            .array(z.string().regex(/^[A-Za-z0-9_][A-Za-z0-9_.-]*$/, 'a field name').max(200))
            .min(1)
            .max(40)
            .optional()
            .describe(`Fields to show (default: ${DEFAULT_FIELDS.join(', ')}).`),
          limit: z.number().int().min(1).max(1000).default(20).describe('At most this many frames.'),
          options,
        },
        outputSchema: loose({
          file: z.string(),
          filter: z.string(),
          fields: z.array(z.string()),
          frames: z.array(z.record(z.string(), z.string())),
          count: z.number(),
          more: z.boolean(),
        }),
        annotations: ro,
      },
      guard((a) => this.frames(a)),
    );

    server.registerTool(
      'explain',
      {
        title: 'Explain a check',
        description:
          'What one of roceshark\'s checks means, the rule that selects its evidence (the display filter, with ' +
          'holes such as {point} a finding fills), its severity, what it is measured from, where it points, its ' +
          'impact and its fix, from the check catalogue (epan-ext/common/checks.h), with the docs section that ' +
          'explains it. Takes a check id ("pfc_storm") or a finding id ("pfc_storm|...").',
        inputSchema: {
          check: z.string().min(1).max(1000).describe('A check id such as "pfc_storm", or a finding id.'),
        },
        outputSchema: loose({
          id: z.string(),
          severity: z.string(),
          from: z.string(),
          fix: z.string(),
          filter: z.string(),
          docs: z.string(),
          fields: z.array(loose()),
          experts: z.array(loose()),
        }),
        annotations: ro,
      },
      guard((a) => this.explain(a)),
    );

    server.registerTool(
      'compare',
      {
        title: 'Compare before and after',
        description:
          'Compares two captures or saved reports (before and after a change) with scripts/roce-compare: the health ' +
          'metrics, the verdicts, and the findings matched by id (fixed, new, improved, regressed, same), and a ' +
          'conclusion (improved, regressed, mixed, unchanged).',
        inputSchema: {
          before: z.string().min(1).max(4096).describe('A capture or a report JSON (triage save_report) before the change.'),
          after: z.string().min(1).max(4096).describe('A capture or a report JSON after the change.'),
          options,
        },
        outputSchema: loose({
          before: loose(),
          after: loose(),
          verdict: loose(),
          metrics: z.array(loose()),
          findings: z.array(loose({ id: z.string(), status: z.string() })),
          conclusion: loose({ overall: z.string(), text: z.string() }),
        }),
        annotations: ro,
      },
      guard((a) => this.compare(a)),
    );
  }

  async triage({ files: list, options: opts, max_findings: maxFindings = 20, save_report: save }) {
    // Checked before the run: a bad name costs nothing.
    const target = save !== undefined ? await this.cfg.places.outputFile(save) : null;
    const inputs = await this.inputs(list);
    return this.withCall(async (call) => {
      const { doc, raw, warnings } = await this.report(call, inputs, opts);
      const t = doc.triage;
      const all = Array.isArray(t.findings) ? t.findings : [];
      if (target) await Places.write(target, raw);
      const out = {
        files: inputs.map((f) => f.name),
        verdict: t.health?.verdict ?? 'n/a',
        summary: t.summary ?? '',
        span_ns: t.span_ns,
        qps: t.qps,
        stalled_ns: t.stalled_ns,
        stalled_share: t.stalled_share,
        findings: all.slice(0, maxFindings),
        findings_total: all.length,
        health: t.health,
        warnings,
      };
      if (target) out.saved_report = path.relative(this.cfg.places.output.real, target);
      const head = out.findings.slice(0, 3).map((f) => `#${f.rank} ${f.severity} ${f.kind}: ${f.title}`);
      return this.result(out, [`verdict ${out.verdict}; ${all.length} findings`, ...head].join('\n'));
    });
  }

  async view({ view, files: list, options: opts, limit = 100 }) {
    const inputs = await this.inputs(list);
    return this.withCall(async (call) => {
      const { doc, warnings } = await this.report(call, inputs, opts);
      const truncated = [];
      const data = {};
      for (const s of VIEW_SECTIONS[view]) data[s] = bound(doc[s] ?? null, limit, s, truncated);
      const out = {
        view,
        files: inputs.map((f) => f.name),
        capture: doc.capture ?? {},
        points: bound(doc.points ?? [], limit, 'points', truncated),
        limits: doc.limits ?? [],
        data,
        truncated,
        warnings,
      };
      return this.result(out);
    });
  }

  // The finding `which` names in a report: id, rank or kind.
  static pick(doc, which) {
    const all = doc.triage.findings || [];
    const f = /^\d+$/.test(which)
      ? all.find((x) => x.rank === Number(which))
      : all.find((x) => x.id === which) || all.find((x) => x.kind === which);
    if (!f) {
      const known = all.slice(0, 20).map((x) => `${x.rank}: ${x.id}`).join('; ');
      throw new ToolError(`no finding ${JSON.stringify(which)} in this capture${known ? ` (its findings: ${known})` : ' (it has none)'}`);
    }
    return f;
  }

  async frames({ file, finding: which, filter, fields, limit = 20, options: opts }) {
    if ((which === undefined) === (filter === undefined)) throw new ToolError('give exactly one of finding and filter');
    const [input] = await this.inputs([file]);
    const shown = fields || DEFAULT_FIELDS;
    return this.withCall(async (call) => {
      let chosen = null;
      let display = filter;
      if (which !== undefined) {
        const { doc } = await this.report(call, [input], opts);
        const f = Tools.pick(doc, which);
        chosen = { id: f.id, rank: f.rank, kind: f.kind, title: f.title, evidence_count: f.evidence?.count };
        display = f.evidence?.filter;
        if (!display) throw new ToolError(`finding ${f.id} has no evidence filter`);
      }
      if (/[\0\n\r]/.test(display)) throw new ToolError('a display filter cannot hold NUL or line breaks');
      const args = [
        '--build', this.cfg.build, '-n', '-r', input.path, ...prefArgs(opts),
        ...(SECOND_PASS.test(display) ? ['-2'] : []),
        '-Y', display, '-T', 'fields', '-E', 'header=n', '-E', 'separator=/t', '-E', 'occurrence=a',
        '-E', 'aggregator=,', ...shown.flatMap((f) => ['-e', f]),
      ];
      const r = await run(this.cfg.rsTshark, args, {
        deadline: call.deadline,
        maxBytes: this.cfg.maxOutputBytes,
        env: this.env(call),
        stopAfterLines: limit + 1,
        what: 'tshark',
      });
      if (!r.stopped && r.code !== 0) throw new ToolError(`tshark failed on ${file}: ${reason(r.stderr)}`);
      const lines = r.stdout.toString('utf8').split('\n');
      if (lines.length && lines[lines.length - 1] === '') lines.pop();
      const rows = lines.slice(0, limit).map((line) => {
        const cells = line.split('\t');
        // A field the frame does not have is left out.
        return Object.fromEntries(shown.map((f, i) => [f, cells[i] ?? '']).filter(([, v]) => v !== ''));
      });
      const out = {
        file,
        filter: display,
        fields: shown,
        frames: rows,
        count: rows.length,
        more: lines.length > limit,
        ...(chosen ? { finding: chosen } : {}),
      };
      return this.result(out, `${rows.length}${out.more ? '+' : ''} frames match ${display}`);
    });
  }

  async explain({ check }) {
    const cat = this.cfg.catalogue();
    if (!cat) throw new ToolError(`no check catalogue in ${this.cfg.build}: build roceshark first (its checks-json target writes checks.json)`);
    const id = check.split('|')[0].trim();
    const c = cat.byId.get(id);
    if (!c) throw new ToolError(`no check ${JSON.stringify(id)}; the checks are: ${[...cat.byId.keys()].join(', ')}`);
    const out = {
      ...c,
      docs_uri: `roceshark://docs/${c.docs.split('#')[0]}`,
      docs_section: section(this.cfg.repo, c.docs) ?? '',
      filter_holes:
        'A finding fills the holes: {point}, {prev_point} (capture point ids), {mac}, {priority}, {nak}, {points} and ' +
        '{streams} ("== 1" or "in {1, 2}"), {place} (a whole condition).',
    };
    return this.result(out, `${c.id} (${c.severity}): ${c.from}\nFix: ${c.fix}`);
  }

  // A report JSON is passed on as it is; a capture is turned into one by
  // `roceshark report` first, into the call's scratch directory.
  async compare({ before, after, options: opts }) {
    const inputs = await this.inputs([before, after]);
    return this.withCall(async (call) => {
      const reports = [];
      for (const [i, f] of inputs.entries()) {
        const head = await readHead(f.path);
        if (head.trimStart().startsWith('{')) {
          reports.push(f.path);
          continue;
        }
        const { raw } = await this.report(call, [f], opts);
        const out = path.join(call.scratch, `${i ? 'after' : 'before'}.json`);
        await fs.writeFile(out, raw);
        reports.push(out);
      }
      const r = await run(this.cfg.compare, [...reports, '--json', '--build', this.cfg.build], {
        deadline: call.deadline,
        maxBytes: this.cfg.maxOutputBytes,
        env: this.env(call),
        what: 'roce-compare',
      });
      if (r.code !== 0) throw new ToolError(`roce-compare failed: ${reason(r.stderr).replaceAll(call.scratch + '/', '')}`);
      let doc;
      try {
        doc = JSON.parse(r.stdout.toString('utf8'));
      } catch (e) {
        throw new ToolError(`roce-compare printed no JSON (${e.message})`);
      }
      if (doc.before) doc.before.source = before;
      if (doc.after) doc.after.source = after;
      return this.result(doc, doc.conclusion?.text);
    });
  }
}

async function readHead(file) {
  const h = await fs.open(file, 'r');
  try {
    const buf = Buffer.alloc(64);
    const { bytesRead } = await h.read(buf, 0, 64, 0);
    return buf.subarray(0, bytesRead).toString('latin1');
  } finally {
    await h.close();
  }
}
