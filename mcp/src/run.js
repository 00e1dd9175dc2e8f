// SPDX-License-Identifier: GPL-2.0-or-later
// Child processes with a time and an output limit: each runs in a process
// group of its own, killed whole (SIGTERM, then SIGKILL) when the call's
// time is up or its output passes the limit. A run that breaks a limit is
// a ToolError: the caller gets a tool error, the server goes on serving.
import { spawn } from 'node:child_process';

// A failure to show the user as the tool's error (isError: true).
export class ToolError extends Error {}

const KILL_GRACE_MS = 1000;
const STDERR_KEEP = 16 * 1024;

// Running children, so the server can end them when it stops.
const running = new Set();

function killGroup(child, signal) {
  try {
    process.kill(-child.pid, signal);
  } catch {
    // already gone
  }
}

export function killAll() {
  for (const child of running) killGroup(child, 'SIGKILL');
}

// At most `n` children at once (a machine has few cores; a client may call
// tools in parallel): the others wait their turn. Waiting counts against
// no limit; running does.
class Gate {
  constructor(n) {
    this.free = n;
    this.queue = [];
  }
  async enter() {
    if (this.free > 0) {
      this.free--;
      return;
    }
    await new Promise((resolve) => this.queue.push(resolve));
  }
  leave() {
    const next = this.queue.shift();
    if (next) next();
    else this.free++;
  }
}
const gate = new Gate(2);

// Runs `cmd args`. Resolves {code, signal, stdout (Buffer), stderr (string),
// stopped}. Rejects with a ToolError on a timeout, on stdout over maxBytes
// or when the command cannot be started. With stopAfterLines, the child is
// ended once stdout has that many lines (stopped: true): enough was read.
// `deadline` is a Date.now() value shared by all the runs of one call.
export async function run(cmd, args, { deadline, maxBytes, env, stopAfterLines, what }) {
  await gate.enter();
  try {
    return await runNow(cmd, args, { deadline, maxBytes, env, stopAfterLines, what });
  } finally {
    gate.leave();
  }
}

function runNow(cmd, args, { deadline, maxBytes, env, stopAfterLines, what }) {
  const label = what || cmd;
  const left = deadline - Date.now();
  if (left <= 0) return Promise.reject(new ToolError(`${label}: the call's time limit was reached`));
  return new Promise((resolve, reject) => {
    let child;
    try {
      child = spawn(cmd, args, { detached: true, stdio: ['ignore', 'pipe', 'pipe'], env });
    } catch (e) {
      reject(new ToolError(`${label}: cannot start ${cmd}: ${e.message}`));
      return;
    }
    running.add(child);
    const chunks = [];
    let size = 0;
    let lines = 0;
    let stderr = '';
    let failure = null;
    let stopped = false;
    let settled = false;
    let graceTimer = null;

    const end = (why) => {
      if (failure || stopped) return;
      if (why === 'stop') stopped = true;
      else failure = why;
      killGroup(child, 'SIGTERM');
      graceTimer = setTimeout(() => killGroup(child, 'SIGKILL'), KILL_GRACE_MS);
    };
    const timer = setTimeout(
      () => end(new ToolError(`${label}: stopped at the time limit (${(left / 1000).toFixed(1)} s left of this call); narrow the request or raise --timeout`)),
      left,
    );

    child.stdout.on('data', (b) => {
      if (failure || stopped) return;
      size += b.length;
      if (size > maxBytes) {
        end(new ToolError(`${label}: output over the limit of ${maxBytes} bytes; narrow the request or raise --max-output-mb`));
        return;
      }
      chunks.push(b);
      if (stopAfterLines) {
        for (let i = b.indexOf(10); i !== -1; i = b.indexOf(10, i + 1)) lines++;
        if (lines >= stopAfterLines) end('stop');
      }
    });
    child.stderr.on('data', (b) => {
      stderr += b.toString('utf8');
      if (stderr.length > STDERR_KEEP) stderr = stderr.slice(-STDERR_KEEP);
    });
    const finish = (code, signal, startError) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(graceTimer);
      running.delete(child);
      // Whatever the group left behind (a tshark under a wrapper script).
      if (failure || stopped) killGroup(child, 'SIGKILL');
      if (startError) reject(new ToolError(`${label}: cannot start ${cmd}: ${startError.message}`));
      else if (failure) reject(failure);
      else resolve({ code, signal, stdout: Buffer.concat(chunks), stderr, stopped });
    };
    child.on('error', (e) => finish(null, null, e));
    child.on('close', (code, signal) => finish(code, signal, null));
  });
}

// What a command's error output says: its own "prog: ..." lines (not
// its usage), else its last lines.
export function reason(stderr) {
  const lines = stderr.split('\n').map((l) => l.trim()).filter(Boolean);
  const own = lines.filter((l) => /^[\w.-]+: /.test(l) && !l.startsWith('usage: '));
  return (own.length ? own.slice(0, 3) : lines.slice(-3)).join(' ') || '(no message)';
}
