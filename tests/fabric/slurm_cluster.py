# SPDX-License-Identifier: GPL-2.0-or-later
"""A real single-node Slurm cluster for a test, on loopback only.

    with SlurmCluster() as cluster:
        subprocess.run(["sbatch", ...], env=cluster.env)

As root, with Debian's slurm-wlm (22.05) and munge: a munge key, munged, a
slurm.conf and slurmctld and slurmd, all with their state, sockets, pids
and logs in one temporary directory, on free ports of 127.0.0.1. No
accounting (sacct has nothing to say: a job's end is read from squeue and
from what the job itself wrote). `env` points the clients (sbatch, squeue,
scancel, sinfo) at it: SLURM_CONF names the slurm.conf, whose AuthInfo
names munged's socket. On exit every daemon is killed and the directory
removed. A cluster that is not up within STARTUP_S raises ClusterError
with the daemons' logs."""
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time

STARTUP_S = 60
DAEMONS = ("munged", "slurmctld", "slurmd")


class ClusterError(Exception):
    pass


def missing():
    """Why no cluster can be made here, or None."""
    if os.geteuid() != 0:
        return "a Slurm cluster of its own needs root (SlurmUser=root, munged's key)"
    for tool in (*DAEMONS, "sbatch", "squeue", "sinfo", "scancel"):
        if not shutil.which(tool):
            return f"no {tool} (apt-get install slurm-wlm munge)"
    return None


def free_ports(n):
    """n ports nobody listens on at 127.0.0.1 (held together, so distinct)."""
    socks = [socket.socket() for _ in range(n)]
    try:
        for s in socks:
            s.bind(("127.0.0.1", 0))
        return [s.getsockname()[1] for s in socks]
    finally:
        for s in socks:
            s.close()


def this_node():
    """CPUs (the ones this process may use) and RealMemory in MiB, a tenth
    below MemTotal: slurmd drains a node that has less than its slurm.conf says."""
    with open("/proc/meminfo") as f:
        kib = next(int(line.split()[1]) for line in f if line.startswith("MemTotal:"))
    return len(os.sched_getaffinity(0)), kib * 9 // 10 // 1024


class SlurmCluster:
    def __init__(self):
        self.dir = None
        self.env = None
        self.procs = {}

    def path(self, *parts):
        return os.path.join(self.dir, *parts)

    def __enter__(self):
        why = missing()
        if why:
            raise ClusterError(why)
        self.dir = tempfile.mkdtemp(prefix="rs-slurm-")
        try:
            self._start()
        except BaseException:
            self.__exit__(None, None, None)
            raise
        return self

    def __exit__(self, *exc):
        if self.env:  # jobs first, while slurmd can still end them
            subprocess.run(["scancel", "--full", "--quiet", "--user=root"], env=self.env, capture_output=True)
        for name in reversed(DAEMONS):
            p = self.procs.pop(name, None)
            if p:  # its process group: slurmctld's slurmscriptd too
                try:
                    os.killpg(p.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
                p.wait()
        # slurmstepd and a job's processes are sessions of their own and
        # outlive slurmd: they carry this cluster's SLURM_CONF.
        for pid in self._job_pids():
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        if self.dir:
            shutil.rmtree(self.dir, ignore_errors=True)
            self.dir = None

    def _job_pids(self):
        """Other processes whose environment names this cluster's slurm.conf."""
        if not self.dir:
            return []
        mark = f"SLURM_CONF={self.path('slurm.conf')}\0".encode()
        pids = []
        for pid in filter(str.isdigit, os.listdir("/proc")):
            try:
                with open(f"/proc/{pid}/environ", "rb") as f:
                    if mark in f.read() and int(pid) != os.getpid():
                        pids.append(int(pid))
            except OSError:
                continue
        return pids

    def _start(self):
        # munged wants its socket's directories searchable by everyone.
        os.chmod(self.dir, 0o755)
        for d in ("munge", "state", "spool", "log"):
            os.mkdir(self.path(d), 0o755 if d == "munge" else 0o700)
        key = self.path("munge", "munge.key")
        with open(os.open(key, os.O_WRONLY | os.O_CREAT, 0o600), "wb") as f:
            f.write(os.urandom(1024))
        sock = self.path("munge", "munge.socket")
        self._daemon("munged", ["munged", "--foreground", "--socket", sock, "--key-file", key,
                                "--pid-file", self.path("munge", "munged.pid"),
                                "--seed-file", self.path("munge", "munged.seed"),
                                "--log-file", self.path("log", "munged.log")])
        self._until(lambda: os.path.exists(sock), "munged's socket")

        ctld_port, slurmd_port = free_ports(2)
        cpus, mem = this_node()
        conf = self.path("slurm.conf")
        with open(conf, "w") as f:
            f.write(f"""\
ClusterName=roceshark-test
SlurmctldHost=localhost
SlurmctldPort={ctld_port}
SlurmdPort={slurmd_port}
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket={sock}
StateSaveLocation={self.path("state")}
SlurmdSpoolDir={self.path("spool")}
SlurmctldPidFile={self.path("slurmctld.pid")}
SlurmdPidFile={self.path("slurmd.pid")}
SlurmctldLogFile={self.path("log", "slurmctld.log")}
SlurmdLogFile={self.path("log", "slurmd.log")}
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SwitchType=switch/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
NodeName=localhost NodeAddr=127.0.0.1 CPUs={cpus} RealMemory={mem} State=UNKNOWN
PartitionName=test Nodes=localhost Default=YES MaxTime=INFINITE State=UP
""")
        self.env = dict(os.environ, SLURM_CONF=conf)
        for var in [v for v in self.env if v.startswith(("SLURM_", "SBATCH_", "SQUEUE_"))]:
            if var != "SLURM_CONF":  # a test run inside a job must not aim at that job's cluster
                del self.env[var]
        self._daemon("slurmctld", ["slurmctld", "-D", "-i", "-f", conf])
        self._daemon("slurmd", ["slurmd", "-D", "-N", "localhost", "-f", conf])
        self._until(self._idle, "the node to be idle in sinfo")

    def _daemon(self, name, argv):
        out = open(self.path("log", name + ".out"), "w")
        self.procs[name] = subprocess.Popen(argv, stdout=out, stderr=subprocess.STDOUT,
                                            env=dict(os.environ, SLURM_CONF=self.path("slurm.conf")),
                                            start_new_session=True)
        out.close()

    def _idle(self):
        p = subprocess.run(["sinfo", "-h", "-N", "-o", "%T"], env=self.env, capture_output=True, text=True)
        return p.returncode == 0 and p.stdout.strip() == "idle"

    def _until(self, ready, what):
        deadline = time.monotonic() + STARTUP_S
        while not ready():
            dead = [n for n, p in self.procs.items() if p.poll() is not None]
            if dead or time.monotonic() > deadline:
                why = f"{', '.join(dead)} exited" if dead else f"not within {STARTUP_S} s"
                raise ClusterError(f"Slurm test cluster: waiting for {what}: {why}\n{self.logs()}")
            time.sleep(0.2)

    def logs(self):
        """The node's state and every daemon's log, for a failure message."""
        text = []
        if self.env:
            p = subprocess.run(["sinfo", "-N", "-o", "%N %T %E"], env=self.env, capture_output=True, text=True)
            text.append(f"--- sinfo\n{p.stdout}{p.stderr}")
        for name in sorted(os.listdir(self.path("log"))):
            with open(self.path("log", name), errors="replace") as f:
                body = f.read()[-4000:]
            text.append(f"--- {name}\n{body}")
        return "\n".join(text)
