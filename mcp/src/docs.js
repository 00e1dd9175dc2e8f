// SPDX-License-Identifier: GPL-2.0-or-later
// The documents an assistant may cite (resources) and the check catalogue
// the build exports (build/checks.json, from epan-ext/common/checks.h by
// `checks-table --json`): nothing here is written by hand twice.
import fs from 'node:fs';
import path from 'node:path';

const MIME = { '.md': 'text/markdown', '.json': 'application/json' };

// The documents served as resources: roceshark://docs/NAME.
export function documents(repo) {
  const docs = path.join(repo, 'docs');
  const out = [];
  for (const name of fs.readdirSync(docs).sort()) {
    const ext = path.extname(name);
    if (!MIME[ext]) continue;
    out.push({ name, file: path.join(docs, name), uri: `roceshark://docs/${name}`, mimeType: MIME[ext] });
  }
  out.push({ name: 'README.md', file: path.join(repo, 'README.md'), uri: 'roceshark://docs/README.md', mimeType: 'text/markdown' });
  return out;
}

// The first line that says what a document is: its title.
export function titleOf(file) {
  try {
    const text = fs.readFileSync(file, 'utf8');
    if (file.endsWith('.json')) return JSON.parse(text).title || path.basename(file);
    const h = text.split('\n').find((l) => l.startsWith('# '));
    return h ? h.slice(2).trim() : path.basename(file);
  } catch {
    return path.basename(file);
  }
}

// GitHub's heading anchors, as tests/unit/checks_test.cpp checks the
// catalogue's docs links: lower case, punctuation dropped, spaces to '-'.
export function anchor(heading) {
  let slug = '';
  for (const ch of heading.replace(/^[# ]+/, '')) {
    if (/[A-Za-z0-9]/.test(ch)) slug += ch.toLowerCase();
    else if (ch === ' ' || ch === '-' || ch === '_') slug += ch === ' ' ? '-' : ch;
  }
  return slug;
}

// The section of `docs/FILE.md` that `FILE.md#anchor` names: its heading
// up to the next heading of the same or a higher level, at most `max`
// characters.
export function section(repo, ref, max = 6000) {
  const [file, frag] = ref.split('#');
  let text;
  try {
    text = fs.readFileSync(path.join(repo, 'docs', path.basename(file)), 'utf8');
  } catch {
    return null;
  }
  const lines = text.split('\n');
  let start = -1;
  let level = 0;
  let fence = false;
  for (let i = 0; i < lines.length; i++) {
    if (lines[i].startsWith('```')) fence = !fence;
    if (fence) continue;
    const m = /^(#+) /.exec(lines[i]);
    if (!m) continue;
    if (start < 0) {
      if (anchor(lines[i]) === frag) {
        start = i;
        level = m[1].length;
      }
    } else if (m[1].length <= level) {
      return clip(lines.slice(start, i).join('\n'), max);
    }
  }
  return start < 0 ? null : clip(lines.slice(start).join('\n'), max);
}

function clip(text, max) {
  return text.length <= max ? text.trimEnd() : text.slice(0, max).trimEnd() + '\n[...]';
}

// The catalogue the build wrote; null when there is none.
export function loadCatalogue(build) {
  const file = path.join(build, 'checks.json');
  try {
    const doc = JSON.parse(fs.readFileSync(file, 'utf8'));
    if (!Array.isArray(doc.checks)) return null;
    return { file, doc, byId: new Map(doc.checks.map((c) => [c.id, c])) };
  } catch {
    return null;
  }
}
