// SPDX-License-Identifier: GPL-2.0-or-later
// Which files a call may read and where it may write: only under the
// directories the user allowed (--root, --output), after every symlink is
// resolved. A relative path is taken under each root in turn; an absolute
// one must lie under one; `..` that leaves a root, a symlink that leads
// out of it, and anything but a regular file are refused.
import fs from 'node:fs/promises';
import { constants } from 'node:fs';
import path from 'node:path';
import { ToolError } from './run.js';

const MAX_PATH = 4096;

function inside(dir, p) {
  const rel = path.relative(dir, p);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel)) ? rel : null;
}

export class Places {
  // roots: directories to read under; output: the directory to write under
  // (also readable), or null. Both as given; resolved by init().
  constructor(roots, output) {
    this.given = roots;
    this.outputGiven = output;
  }

  async init() {
    const real = async (dir, what) => {
      let r;
      try {
        r = await fs.realpath(dir);
      } catch (e) {
        throw new Error(`${what} ${dir}: ${e.code === 'ENOENT' ? 'no such directory' : e.message}`);
      }
      if (!(await fs.stat(r)).isDirectory()) throw new Error(`${what} ${dir}: not a directory`);
      return r;
    };
    this.roots = [];
    for (const d of this.given) this.roots.push({ given: path.resolve(d), real: await real(d, '--root') });
    this.output = null;
    if (this.outputGiven) {
      const r = await real(this.outputGiven, '--output');
      this.output = { given: path.resolve(this.outputGiven), real: r };
      this.roots.push(this.output);
    }
    if (!this.roots.length) throw new Error('no --root given: name the directories the captures are in');
    return this;
  }

  describe() {
    return {
      roots: this.roots.filter((r) => r !== this.output).map((r) => r.real),
      output: this.output ? this.output.real : null,
    };
  }

  static check(p, what) {
    if (typeof p !== 'string' || p === '') throw new ToolError(`${what}: a path is needed`);
    if (p.length > MAX_PATH) throw new ToolError(`${what}: path too long`);
    if (/[\0\n\r]/.test(p)) throw new ToolError(`${what}: a path cannot hold NUL or line breaks`);
  }

  // A file to read: {path (real), size, name (as given)}.
  async input(p, what = 'file') {
    Places.check(p, what);
    const candidates = [];
    if (path.isAbsolute(p)) {
      const abs = path.resolve(p);
      if (!this.roots.some((r) => inside(r.given, abs) !== null || inside(r.real, abs) !== null))
        throw new ToolError(`${what} ${p}: outside the allowed directories (${this.describe().roots.join(', ')})`);
      candidates.push(abs);
    } else {
      for (const r of this.roots) {
        const abs = path.resolve(r.real, p);
        if (inside(r.real, abs) === null) throw new ToolError(`${what} ${p}: '..' leads outside the allowed directories`);
        candidates.push(abs);
      }
    }
    let real = null;
    for (const c of candidates) {
      try {
        real = await fs.realpath(c);
        break;
      } catch (e) {
        if (e.code !== 'ENOENT' && e.code !== 'ENOTDIR') throw new ToolError(`${what} ${p}: ${e.code || e.message}`);
      }
    }
    if (real === null) throw new ToolError(`${what} ${p}: no such file under the allowed directories`);
    if (!this.roots.some((r) => inside(r.real, real) !== null))
      throw new ToolError(`${what} ${p}: a symlink leads outside the allowed directories`);
    let st;
    try {
      st = await fs.stat(real);
    } catch (e) {
      throw new ToolError(`${what} ${p}: ${e.code || e.message}`);
    }
    if (!st.isFile()) throw new ToolError(`${what} ${p}: not a regular file`);
    try {
      await fs.access(real, constants.R_OK);
    } catch {
      throw new ToolError(`${what} ${p}: not readable`);
    }
    return { path: real, size: st.size, name: p };
  }

  // A file to write under --output: a plain relative name (sub-directories
  // allowed when they exist), never a symlink. Returns the real path.
  async outputFile(name, what = 'save_report') {
    if (!this.output) throw new ToolError(`${what}: nothing may be written: the server was started without --output DIR`);
    Places.check(name, what);
    if (path.isAbsolute(name)) throw new ToolError(`${what} ${name}: give a name relative to the output directory`);
    const abs = path.resolve(this.output.real, name);
    if (inside(this.output.real, abs) === null || abs === this.output.real)
      throw new ToolError(`${what} ${name}: '..' leads outside the output directory`);
    if (!abs.endsWith('.json')) throw new ToolError(`${what} ${name}: the name must end in .json`);
    let dir;
    try {
      dir = await fs.realpath(path.dirname(abs));
    } catch {
      throw new ToolError(`${what} ${name}: its directory does not exist`);
    }
    if (inside(this.output.real, dir) === null)
      throw new ToolError(`${what} ${name}: a symlink leads outside the output directory`);
    return path.join(dir, path.basename(abs));
  }

  // Writes `text` to a file outputFile() gave: no symlink followed at the
  // last step, only a regular file replaced.
  static async write(file, text) {
    let h;
    try {
      h = await fs.open(file, constants.O_WRONLY | constants.O_CREAT | constants.O_NOFOLLOW | constants.O_NONBLOCK, 0o644);
    } catch (e) {
      throw new ToolError(`cannot write ${file}: ${e.code === 'ELOOP' ? 'it is a symlink' : e.code || e.message}`);
    }
    try {
      if (!(await h.stat()).isFile()) throw new ToolError(`cannot write ${file}: not a regular file`);
      await h.truncate(0);
      await h.writeFile(text);
    } finally {
      await h.close();
    }
  }
}
