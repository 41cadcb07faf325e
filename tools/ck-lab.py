#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""ck-lab.py - make lab-check: a LAVA server of its own on loopback, copykernel's jobs queued
together through its scheduler onto two QEMU devices, their results read back through its
REST API and held to the same jobs' serial logs, then a worker stopped in the middle of a
job; everything it started is stopped at the end, also when a step fails.

  ck-lab.py check [--build build] [--keep-data]     (make lab-check; as root)
  ck-lab.py down [--build build]                    stop what a killed check left running

Everything lives in BUILD/lab, made anew each time: a PostgreSQL cluster of its own (initdb,
a free loopback port), the server's settings given by environment (LAVA_SETTINGS_*, so
/etc/lava-server is not edited; only the worker's dispatcher.d entry is written there, and
removed), gunicorn, lava-publisher and lava-scheduler as the lavaserver user, lava-worker as
root; jobs, logs, the fetched results (lab/fetched/LABEL) and QEMU's own copy of each serial
console (lab/serial/LABEL/serial.log). The steps, each named when it fails with the last lines
of the server's and the worker's logs: database, migrate, server, accounts, devices, worker,
submit, wait, fault, fetch, report; then teardown, which fails the check if a process is
left. tools/cklib/lab.py holds the jobs and what each must show; docs/user/lab.md the
commands one by one.

Exit statuses: 0 every check held; 1 a check failed (the step and why on stderr); 2 usage;
3 cannot run here (not root, a package missing: make lab-check installs them first).
"""
import argparse
import json
import os
import pwd
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cklib import lab, lavaapi  # noqa: E402
from cklib.common import load_tool  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SERVER_USER = "lavaserver"
PG_BINS = "/usr/lib/postgresql"
DISPATCHER_D = "/etc/lava-server/dispatcher.d"
DISPATCHER_TMP = "/var/lib/lava/dispatcher/tmp"
PATH = "/usr/sbin:/usr/bin:/sbin:/bin"
TOTAL = 25 * 60         # the whole check, teardown aside, in seconds
STEP_TIMEOUT = {"database": 120, "migrate": 600, "server": 180, "accounts": 240,
                "devices": 240, "worker": 120, "wait": 900, "fault": 600}
PING = 2                # seconds between the worker's pings (LAVA's default is 20)
LOG_EVERY = 2           # seconds between lava-run's log sends to the server (default 5)
OFFLINE_AFTER = 60      # lava-scheduler: a worker silent this long goes Offline (3 x 20 s)
TAIL = 12               # lines of each log shown when a step fails


class StepFailed(Exception):
    def __init__(self, step, what, logs=()):
        super().__init__("%s: %s" % (step, what))
        self.step, self.what, self.logs = step, what, logs


class Timeout(Exception):
    pass


def say(msg):
    print("lab-check: %s" % msg, flush=True)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def tail(path, n=TAIL):
    try:
        with open(path, errors="replace") as f:
            lines = f.read().splitlines()
    except OSError:
        return []
    return lines[-n:]


def procs():
    """{pid: (ppid, session, cmdline)} of every process that has not ended."""
    out = {}
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % d) as f:
                stat = f.read()
            with open("/proc/%s/cmdline" % d, "rb") as f:
                cmd = f.read().replace(b"\0", b" ").decode(errors="replace").strip()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2:].split()
        if fields[0] != "Z":        # a zombie has ended: only its parent's wait is left
            out[int(d)] = (int(fields[1]), int(fields[3]), cmd)
    return out


def family(roots, marks=()):
    """The pids of @roots, their descendants, the processes of their sessions and any process
    whose command line holds one of @marks (QEMU under pexpect has a session of its own, and
    is reparented when lava-run dies)."""
    table = procs()
    roots = {p for p in roots if p in table}
    sessions = {table[p][1] for p in roots}
    found = set(roots) | {p for p, (_, sid, _) in table.items() if sid in sessions}
    found |= {p for p, (_, _, cmd) in table.items() if any(m in cmd for m in marks)}
    grew = True
    while grew:
        kids = {p for p, (pp, _, _) in table.items() if pp in found} - found
        grew = bool(kids)
        found |= kids
    found.discard(os.getpid())
    return found


def kill_all(pids, sig):
    for p in pids:
        try:
            os.kill(p, sig)
        except ProcessLookupError:
            pass


class Lab:
    def __init__(self, build):
        self.build = os.path.abspath(build)
        self.dir = os.path.join(self.build, "lab")
        self.logs = os.path.join(self.dir, "log")
        self.procs = {}             # name -> Popen (each its own session)
        self.sock = None            # a short directory for sockets (108-byte path limit)
        self.marks = []
        self.worker = self.prefix = None
        self.token = None
        self.ports = {}
        self.env = {}
        self.plan = {}              # label -> {"id", "plan"}
        self.step = "start"
        self.t0 = time.monotonic()

    # -- processes ---------------------------------------------------------------------
    def start(self, name, argv, user=None, env=None):
        out = open(os.path.join(self.logs, name + ".out"), "ab")
        kw = {}
        if user:
            pw = pwd.getpwnam(user)
            kw = {"user": pw.pw_uid, "group": pw.pw_gid, "extra_groups": []}
        p = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=out, stderr=out,
                             env=env or self.env, cwd="/", start_new_session=True, **kw)
        out.close()
        self.procs[name] = p
        self.save_pids()
        return p

    def save_pids(self):
        with open(os.path.join(self.dir, "pids.json"), "w") as f:
            json.dump({"pids": {n: p.pid for n, p in self.procs.items()},
                       "marks": self.marks, "worker": self.worker, "sock": self.sock}, f)

    def stop(self, name, sig=signal.SIGTERM, grace=20):
        """Stop @name and everything below it; SIGKILL what is left after @grace s."""
        p = self.procs.pop(name, None)
        if p is None:
            return
        pids = family([p.pid])
        kill_all(pids, sig)
        end = time.monotonic() + grace
        while time.monotonic() < end and (p.poll() is None or family(pids & set(procs()))):
            time.sleep(0.2)
        kill_all(family(pids & set(procs())), signal.SIGKILL)
        try:
            p.wait(timeout=10)
        except subprocess.TimeoutExpired:
            pass
        self.save_pids()

    def run(self, what, argv, timeout, user=None, env=None):
        """A command to its end (its output to log/WHAT.out); returns its output."""
        path = os.path.join(self.logs, what + ".out")
        kw = {}
        if user:
            pw = pwd.getpwnam(user)
            kw = {"user": pw.pw_uid, "group": pw.pw_gid, "extra_groups": []}
        p = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, env=env or self.env, cwd="/",
                             start_new_session=True, **kw)
        try:
            out, _ = p.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            kill_all(family([p.pid]), signal.SIGKILL)
            p.communicate()
            raise StepFailed(self.step, "%s did not finish within %d s" % (what, timeout),
                             [path])
        text = out.decode(errors="replace")
        with open(path, "a") as f:
            f.write("$ %s\n%s" % (" ".join(argv), text))
        if p.returncode != 0:
            raise StepFailed(self.step, "%s: exit status %d: %s" % (
                what, p.returncode, text.strip()[-300:]), [path])
        return text

    def manage(self, what, *args, timeout=120):
        return self.run(what, ["/usr/bin/lava-server", "manage"] + list(args), timeout,
                        user=SERVER_USER)

    def manage_all(self, *cmds, timeout=180):
        """Several `lava-server manage` commands at once (each starts Django: seconds on a
        loaded machine); {what: output}, or the first failure."""
        out, errs = {}, []

        def one(what, args):
            try:
                out[what] = self.manage(what, *args, timeout=timeout)
            except StepFailed as e:
                errs.append(e)
        threads = [threading.Thread(target=one, args=c) for c in cmds]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        if errs:
            raise errs[0]
        return out

    # -- steps ---------------------------------------------------------------------------
    def prepare(self):
        if os.path.isdir(self.dir):
            down(self.build, quiet=True)
            shutil.rmtree(self.dir)
        for d in ("log", "media", "devices", "health", "worker", "serial", "fetched",
                  "fault", "jobs"):
            os.makedirs(os.path.join(self.dir, d))
        self.sock = tempfile.mkdtemp(prefix="cklab-")
        pw = pwd.getpwnam(SERVER_USER)
        for d in (self.sock, self.dir, self.logs, os.path.join(self.dir, "media"),
                  os.path.join(self.dir, "devices"), os.path.join(self.dir, "health")):
            os.chown(d, pw.pw_uid, pw.pw_gid)
        os.chmod(self.dir, 0o755)
        for k in ("pg", "http", "publisher", "events"):
            self.ports[k] = free_port()
        self.worker = "ck-lab-%d" % self.ports["http"]
        self.prefix = self.worker + "-"
        self.marks = [self.dir, self.sock, os.path.join(DISPATCHER_TMP, self.prefix)]
        db = {"default": {"ENGINE": "django.db.backends.postgresql", "NAME": "lavaserver",
                          "USER": SERVER_USER, "PASSWORD": "", "HOST": "127.0.0.1",
                          "PORT": self.ports["pg"]}}
        # The server's settings, all from the environment (lava_server/settings/prod.py
        # reads LAVA_SETTINGS_* as text and LAVA_YAML_SETTINGS_* as YAML, after its files).
        self.env = {"PATH": PATH, "HOME": pw.pw_dir, "LANG": "C.UTF-8",
                    "LAVA_YAML_SETTINGS_DATABASES": json.dumps(db),
                    "LAVA_SETTINGS_SECRET_KEY": secrets.token_hex(32),
                    "LAVA_SETTINGS_MEDIA_ROOT": os.path.join(self.dir, "media"),
                    "LAVA_SETTINGS_DEVICES_PATH": os.path.join(self.dir, "devices"),
                    "LAVA_SETTINGS_HEALTH_CHECKS_PATH": os.path.join(self.dir, "health"),
                    "LAVA_SETTINGS_DJANGO_LOGFILE": os.path.join(self.logs, "django.log"),
                    "LAVA_YAML_SETTINGS_EVENT_NOTIFICATION": "true",
                    "LAVA_SETTINGS_INTERNAL_EVENT_SOCKET": "ipc://%s/events" % self.sock,
                    "LAVA_SETTINGS_EVENT_SOCKET": "tcp://127.0.0.1:%d" % self.ports["events"]}
        self.url = "http://127.0.0.1:%d" % self.ports["http"]
        self.save_pids()

    def database(self):
        bins = sorted(d for d in os.listdir(PG_BINS) if d.isdigit()) if \
            os.path.isdir(PG_BINS) else []
        if not bins:
            raise StepFailed("database", "no PostgreSQL under %s (apt-get install postgresql)"
                             % PG_BINS)
        pgbin = os.path.join(PG_BINS, bins[-1], "bin")
        data = os.path.join(self.dir, "pg")
        os.makedirs(data, mode=0o700)
        pw = pwd.getpwnam(SERVER_USER)
        os.chown(data, pw.pw_uid, pw.pw_gid)
        self.run("initdb", [os.path.join(pgbin, "initdb"), "-D", data, "-U", SERVER_USER,
                            "--auth=trust", "-E", "UTF8", "--locale=C.UTF-8"], 120,
                 user=SERVER_USER)
        # A throwaway database: no fsync, no full pages.
        self.start("postgres", [os.path.join(pgbin, "postgres"), "-D", data, "-k", self.sock,
                                "-p", str(self.ports["pg"]), "-c", "listen_addresses=127.0.0.1",
                                "-c", "fsync=off", "-c", "full_page_writes=off",
                                "-c", "synchronous_commit=off", "-c",
                                "log_destination=stderr"], user=SERVER_USER)
        psql = [os.path.join(pgbin, "psql"), "-h", "127.0.0.1", "-p", str(self.ports["pg"]),
                "-U", SERVER_USER, "-d", "postgres", "-v", "ON_ERROR_STOP=1", "-qAtc"]
        self.poll("PostgreSQL answering", lambda: self.quiet(psql + ["select 1"]), 60,
                  ["postgres.out"])
        self.run("createdb", psql + ["CREATE DATABASE lavaserver"], 60, user=SERVER_USER)

    def quiet(self, argv, user=SERVER_USER):
        pw = pwd.getpwnam(user)
        try:
            return subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                  env=self.env, timeout=10, user=pw.pw_uid, group=pw.pw_gid,
                                  extra_groups=[]).returncode == 0
        except subprocess.TimeoutExpired:
            return False

    def poll(self, what, ok, timeout, logs=(), every=1.0):
        end = time.monotonic() + timeout
        while True:
            try:
                if ok():
                    return
            except (lavaapi.ApiError, OSError):
                pass
            for name, p in self.procs.items():
                if p.poll() is not None:
                    raise StepFailed(self.step, "%s exited (status %s) while waiting for %s"
                                     % (name, p.returncode, what), logs)
            if time.monotonic() > end:
                raise StepFailed(self.step, "no %s after %d s" % (what, timeout), logs)
            time.sleep(every)

    def migrate(self):
        self.manage("migrate", "migrate", "--noinput", timeout=STEP_TIMEOUT["migrate"])

    def server(self):
        log = lambda n: os.path.join(self.logs, n)  # noqa: E731
        self.start("gunicorn", ["/usr/bin/gunicorn3", "lava_server.wsgi", "-u", SERVER_USER,
                                "-g", SERVER_USER, "--workers", "2", "--timeout", "120",
                                "--bind", "127.0.0.1:%d" % self.ports["http"],
                                "--log-file", log("gunicorn.log")])
        self.start("publisher", ["/usr/bin/lava-server", "manage", "lava-publisher",
                                 "--host", "127.0.0.1", "--port", str(self.ports["publisher"]),
                                 "--log-file", log("publisher.log")])
        self.start("scheduler", ["/usr/bin/lava-server", "manage", "lava-scheduler",
                                 "--event-url", "tcp://127.0.0.1:%d" % self.ports["events"],
                                 "--log-file", log("scheduler.log")])
        api = lavaapi.Server(self.url, timeout=10)
        self.poll("answer from %s/api/v0.2/system/version/" % self.url,
                  lambda: api.version() is not None, STEP_TIMEOUT["server"],
                  ["gunicorn.log", "django.log", "gunicorn.out"], every=2)
        say("server: lava-server %s at %s (publisher :%d, events :%d, PostgreSQL :%d)" % (
            api.version(), self.url, self.ports["publisher"], self.ports["events"],
            self.ports["pg"]))

    def accounts(self):
        password = secrets.token_hex(12)
        self.manage("users", "users", "add", "--superuser", "--staff", "--passwd", password,
                    "lab")
        got = self.manage_all(("tokens", ("tokens", "add", "--user", "lab")),
                              ("workers", ("workers", "add", self.worker)),
                              ("device-types", ("device-types", "add", "qemu")))
        words = got["tokens"].split()
        self.token = words[-1] if words else None
        m = re.search(r"Token: (\S+)", got["workers"])
        if not self.token or not m:
            raise StepFailed("accounts", "no token in lava-server manage's output",
                             ["tokens.out", "workers.out"])
        self.worker_token = m.group(1)
        with open(os.path.join(self.dir, "token"), "w") as f:
            os.fchmod(f.fileno(), 0o600)
            f.write(self.token + "\n")
        # The worker's dispatcher configuration (the server serves it to the worker): a job
        # directory prefix of its own, so no other LAVA on this machine shares job ids.
        d = os.path.join(DISPATCHER_D, self.worker)
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, "dispatcher.yaml"), "w") as f:
            f.write("# make lab-check (tools/ck-lab.py): removed at its end\n"
                    "prefix: %s\n" % self.prefix)
        shutil.chown(d, SERVER_USER, SERVER_USER)

    def devices(self):
        pw = pwd.getpwnam(SERVER_USER)
        cmds = []
        for dev in lab.DEVICES:
            path = os.path.join(self.dir, "devices", dev.name + ".jinja2")
            shutil.copyfile(os.path.join(ROOT, "lava", "devices", dev.dictionary + ".jinja2"),
                            path)
            os.chown(path, pw.pw_uid, pw.pw_gid)
            # The name first: --tags takes every word after it.
            cmds.append(("device-" + dev.name, ("devices", "add", dev.name, "--device-type",
                                                "qemu", "--worker", self.worker,
                                                "--tags", dev.tag)))
        self.manage_all(*cmds)
        for d in lavaapi.Server(self.url, self.token, 30).devices():
            say("devices: %s (%s) on %s, tags %s: %s, %s" % (
                d["hostname"], d["device_type"], d["worker_host"],
                ",".join(str(t) for t in d["tags"]) or "-",
                d["state"], d["health"]))

    def start_worker(self):
        self.start("worker", ["/usr/bin/lava-worker", "--name", self.worker, "--url", self.url,
                              "--ws-url", "http://127.0.0.1:%d/ws/" % self.ports["publisher"],
                              "--token", self.worker_token,
                              "--worker-dir", os.path.join(self.dir, "worker"),
                              "--log-file", os.path.join(self.logs, "worker.log"),
                              "--level", "DEBUG", "--ping-interval", str(PING),
                              "--job-log-interval", str(LOG_EVERY)])

    def worker_state(self):
        return lavaapi.Server(self.url, self.token, 10).worker(self.worker).get("state")

    def worker_up(self):
        self.start_worker()
        self.poll("worker %s Online" % self.worker, lambda: self.worker_state() == "Online",
                  STEP_TIMEOUT["worker"], ["worker.log", "gunicorn.log"])

    # -- jobs ----------------------------------------------------------------------------
    def render(self, plan, where):
        """The job of @plan, QEMU's copy of its console going to lab/WHERE/LABEL/serial.log."""
        ckl = load_tool("ck-lava")
        serial_dir = os.path.join(self.dir, where, plan.label)
        os.makedirs(serial_dir, exist_ok=True)
        try:
            minutes = ckl.job_minutes(plan.cmdline, plan.minutes, 10)
            text = ckl.render_job("qemu-kernel", plan.cmdline,
                                  image_url="file://" + os.path.join(self.dir,
                                                                     "copykernel.efi"),
                                  name="lab-check " + plan.label, test_minutes=minutes,
                                  tags=plan.tags,
                                  serial_log=os.path.join(serial_dir, "serial.log"))
        except ckl.Fail as e:
            raise StepFailed(self.step, "ck-lava.py cannot render %s: %s" % (plan.label, e))
        with open(os.path.join(self.dir, "jobs", plan.label + ".yaml"), "w") as f:
            f.write(text)
        return text

    def submit(self, plans, where):
        api = lavaapi.Server(self.url, self.token, 30)
        texts = [(p, self.render(p, where)) for p in plans]    # all rendered, then queued
        for p, text in texts:
            job_id = api.submit(text)[0]
            self.plan[p.label] = {"id": job_id, "plan": p._asdict(), "where": where}
            say("submitted %-15s job %d: %s%s" % (p.label, job_id, p.cmdline,
                                                  " (tags %s)" % ",".join(p.tags)
                                                  if p.tags else ""))
        with open(os.path.join(self.dir, "plan.json"), "w") as f:
            json.dump(self.plan, f, indent=1)

    def wait(self, labels, timeout):
        api = lavaapi.Server(self.url, self.token, 30)
        ids = {self.plan[lb]["id"]: lb for lb in labels}

        def show(j):
            say("job %d (%s): %s %s%s" % (j["id"], ids[j["id"]], j.get("state"),
                                           j.get("health"), " on " + j["actual_device"]
                                           if j.get("actual_device") else ""))
        try:
            return lavaapi.wait(api, list(ids), timeout, poll=3, progress=show)
        except lavaapi.WaitTimeout as e:
            raise StepFailed(self.step, str(e), ["scheduler.log", "worker.log"])

    def fault(self):
        """Submit FAULT; once its soak runs, stop the worker as a worker host that dies
        would (lava-worker, lava-run and QEMU at once, SIGKILL); the server keeps the job
        Running and marks the worker Offline after OFFLINE_AFTER s; the worker comes back
        (same directory, as after a reboot) and tells the server the job ended without its
        result; the server ends it Incomplete."""
        api = lavaapi.Server(self.url, self.token, 30)
        self.submit([lab.FAULT], "fault/serial")
        job_id = self.plan["fault"]["id"]

        # Stopped once the server's log holds the soak's first line: the job is well
        # under way, and what the server has of it says so.
        self.poll("the fault job's soak in the server's log",
                  lambda: "soak: soak=" in api.log(job_id), 300, ["worker.log"], every=2)
        p = self.procs.pop("worker")
        pids = family([p.pid], [self.prefix])
        kill_all(pids, signal.SIGKILL)
        p.wait(timeout=10)
        say("fault: worker %s stopped with its job %d (SIGKILL to %d processes: lava-worker, "
            "lava-run, QEMU)" % (self.worker, job_id, len(pids)))
        t = time.monotonic()
        self.poll("worker %s Offline on the server" % self.worker,
                  lambda: self.worker_state() == "Offline", OFFLINE_AFTER + 120,
                  ["scheduler.log"], every=2)
        j = api.job(job_id)
        say("fault: the server marked the worker Offline after %.0f s; job %d is %s %s" % (
            time.monotonic() - t, job_id, j["state"], j["health"]))
        self.fault_state = (j["state"], j["health"])
        self.worker_up()
        say("fault: worker back Online")
        done = self.wait(["fault"], 180)[job_id]
        say("fault: job %d ended %s %s" % (job_id, done["state"], done["health"]))

    def fetch(self):
        """Each job's record, results and log, beside the directory of its serial log:
        lab/fetched/LABEL for the fleet (lab/serial/LABEL), lab/fault/fetched/fault for the
        fault job (lab/fault/serial/fault)."""
        api = lavaapi.Server(self.url, self.token, 60)
        for label, p in sorted(self.plan.items()):
            top = os.path.dirname(os.path.join(self.dir, p["where"]))
            lavaapi.fetch(api, p["id"], os.path.join(top, "fetched", label))

    # -- the report ----------------------------------------------------------------------
    def report(self):
        git = subprocess.run(["git", "-C", ROOT, "rev-parse", "HEAD"], capture_output=True,
                             text=True, timeout=30)
        commit = git.stdout.strip() if git.returncode == 0 else None
        fetched, serial = os.path.join(self.dir, "fetched"), os.path.join(self.dir, "serial")
        rep = os.path.join(ROOT, "tools", "ck-report.py")
        out = {}
        for name, args in (("fleet-api.txt", ["--fleet", fetched]),
                           ("fleet-serial.txt", ["--fleet", serial]),
                           ("fleet-api.json", ["--fleet", fetched, "--json"]),
                           ("fleet-serial.json", ["--fleet", serial, "--json"]),
                           ("fault.txt", ["--fleet", os.path.join(self.dir, "fault",
                                                                  "fetched")]),
                           ("kcidb-api.json", ["--fleet", fetched, "--kcidb"] +
                            (["--git-commit", commit] if commit else [])),
                           ("kcidb-serial.json", ["--fleet", serial, "--kcidb"] +
                            (["--git-commit", commit] if commit else []))):
            r = subprocess.run([sys.executable, rep] + args, capture_output=True, text=True,
                               timeout=300)
            if r.returncode != 0:
                raise StepFailed("report", "ck-report.py %s: status %d: %s" % (
                    " ".join(args), r.returncode, r.stderr.strip()[-300:]))
            out[name] = r.stdout
            with open(os.path.join(self.dir, name), "w") as f:
                f.write(r.stdout)
        print(out["fleet-api.txt"], end="", flush=True)
        print(out["fault.txt"][out["fault.txt"].find(lab.LAVA_HEAD):], end="", flush=True)
        # The checks, kept in one place for this run and the stored one (tests/data/lab):
        # tests/tools/test_ck_lab.py, with KCIDB's rules from test_ck_report_kcidb.py.
        env = dict(os.environ, CK_LAB_DIR=self.dir, PATH=PATH + ":" + os.environ.get("PATH",
                                                                                    ""))
        r = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                            "-k", "live", os.path.join(ROOT, "tests", "tools",
                                                       "test_ck_lab.py")],
                           cwd=os.path.join(ROOT, "tests", "tools"), capture_output=True,
                           text=True, timeout=600, env=env)
        with open(os.path.join(self.logs, "checks.out"), "w") as f:
            f.write(r.stdout + r.stderr)
        if r.returncode != 0:
            raise StepFailed("report", "tests/tools/test_ck_lab.py on this run:\n" +
                             "\n".join(r.stdout.strip().splitlines()[-40:]))
        say("report: " + r.stdout.strip().splitlines()[-1])


def down(build, quiet=False):
    """Stop whatever a check left running (its pids.json), remove the worker's dispatcher.d
    entry and job directories; returns the processes that were still there."""
    d = os.path.join(os.path.abspath(build), "lab")
    try:
        with open(os.path.join(d, "pids.json")) as f:
            saved = json.load(f)
    except (OSError, ValueError):
        return []
    pids = family(set(saved.get("pids", {}).values()), [m for m in saved.get("marks", [])
                                                        if m])
    if pids:
        kill_all(pids, signal.SIGTERM)
        time.sleep(2)
        kill_all(family(pids & set(procs())), signal.SIGKILL)
        if not quiet:
            say("down: stopped %d processes" % len(pids))
    cleanup(saved.get("worker"), saved.get("sock"))
    return sorted(pids)


def cleanup(worker, sock):
    if worker and re.match(r"^ck-lab-\d+$", worker):
        shutil.rmtree(os.path.join(DISPATCHER_D, worker), ignore_errors=True)
        if os.path.isdir(DISPATCHER_TMP):
            for e in os.listdir(DISPATCHER_TMP):
                if e.startswith(worker + "-"):
                    shutil.rmtree(os.path.join(DISPATCHER_TMP, e), ignore_errors=True)
    if sock and os.path.basename(sock).startswith("cklab-"):
        shutil.rmtree(sock, ignore_errors=True)


def teardown(lb):
    """Stop the worker first (it starts jobs), then the scheduler, the publisher, gunicorn
    and PostgreSQL (fast shutdown); then look for anything of this lab still running."""
    for name, sig in (("worker", signal.SIGTERM), ("scheduler", signal.SIGTERM),
                      ("publisher", signal.SIGTERM), ("gunicorn", signal.SIGTERM),
                      ("postgres", signal.SIGINT)):
        lb.stop(name, sig)
    for name in list(lb.procs):
        lb.stop(name)
    left = family(set(), [m for m in lb.marks if m])
    if left:
        kill_all(left, signal.SIGKILL)
    cleanup(lb.worker, lb.sock)
    time.sleep(0.5)
    return sorted(family(set(), [m for m in lb.marks if m]) | left)


def check(args):
    if os.geteuid() != 0:
        print("ck-lab: make lab-check runs as root: it installs packages, runs the server as "
              "%s and lava-run (which wants root)" % SERVER_USER, file=sys.stderr)
        return 3
    for tool in ("/usr/bin/lava-server", "/usr/bin/lava-worker", "/usr/bin/lava-run",
                 "/usr/bin/gunicorn3", "/usr/bin/qemu-system-x86_64"):
        if not os.path.exists(tool):
            print("ck-lab: %s missing: run make lab-check (tools/ensure-deps.sh lab installs "
                  "what it needs)" % tool, file=sys.stderr)
            return 3
    try:
        pwd.getpwnam(SERVER_USER)
    except KeyError:
        print("ck-lab: no user %s (the lava-server package makes it)" % SERVER_USER,
              file=sys.stderr)
        return 3
    efi = os.path.join(os.path.abspath(args.build), "copykernel.efi")
    if not os.path.isfile(efi):
        print("ck-lab: %s: no image (make all)" % efi, file=sys.stderr)
        return 3

    lb = Lab(args.build)

    def on_signal(signum, _):
        raise StepFailed(lb.step, "stopped by signal %d" % signum)

    def on_alarm(*_):
        raise Timeout()
    for s in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(s, on_signal)
    signal.signal(signal.SIGALRM, on_alarm)
    signal.alarm(args.timeout)
    status = 0
    try:
        try:
            lb.prepare()
            shutil.copyfile(efi, os.path.join(lb.dir, "copykernel.efi"))
            for step, fn in (("database", lb.database), ("migrate", lb.migrate),
                             ("server", lb.server), ("accounts", lb.accounts),
                             ("devices", lb.devices), ("worker", lb.worker_up),
                             ("submit", lambda: lb.submit(lab.FLEET, "serial")),
                             ("wait", lambda: lb.wait([p.label for p in lab.FLEET],
                                                      STEP_TIMEOUT["wait"])),
                             ("fault", lb.fault), ("fetch", lb.fetch),
                             ("report", lb.report)):
                lb.step = step
                t = time.monotonic()
                fn()
                say("%s: done (%.0f s)" % (step, time.monotonic() - t))
        except Timeout:
            raise StepFailed(lb.step, "the whole check took more than %d s" % args.timeout)
        except lavaapi.ApiError as e:
            raise StepFailed(lb.step, str(e), ["gunicorn.log", "django.log"])
    except StepFailed as e:
        status = 1
        signal.alarm(0)
        print("lab-check: FAILED in step %s: %s" % (e.step, e.what), file=sys.stderr)
        logs = list(e.logs) + ["gunicorn.log", "django.log", "scheduler.log", "worker.log"]
        for name in dict.fromkeys(logs):
            lines = tail(os.path.join(lb.logs, name))
            if lines:
                print("--- last lines of %s:" % os.path.join(lb.logs, name), file=sys.stderr)
                for ln in lines:
                    print("    " + ln[:300], file=sys.stderr)
    finally:
        signal.alarm(0)
        for s in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
            signal.signal(s, signal.SIG_IGN)       # the teardown runs to its end
        lb.step = "teardown"
        left = teardown(lb)
        if left:
            status = 1
            print("lab-check: FAILED in step teardown: still running: %s" % ", ".join(
                str(p) for p in left), file=sys.stderr)
        else:
            say("teardown: every process stopped (%.0f s in all)" % (time.monotonic() - lb.t0))
        if not args.keep_data:
            shutil.rmtree(os.path.join(lb.dir, "pg"), ignore_errors=True)
    if status == 0:
        say("ok")
    return status


def main(argv=None):
    ap = argparse.ArgumentParser(prog="ck-lab.py", description=__doc__.split("\n")[0],
                                 epilog="Exit statuses: 0 every check held, 1 a check failed, "
                                        "2 usage, 3 cannot run here.")
    sub = ap.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("check", help="make lab-check")
    c.add_argument("--build", default=os.path.join(ROOT, "build"))
    c.add_argument("--timeout", type=int, default=TOTAL, help="seconds for the whole check")
    c.add_argument("--keep-data", action="store_true", help="keep the PostgreSQL cluster "
                   "(lab/pg) after the check")
    d = sub.add_parser("down", help="stop what a killed check left running")
    d.add_argument("--build", default=os.path.join(ROOT, "build"))
    args = ap.parse_args(argv)
    if args.cmd == "down":
        down(args.build)
        return 0
    return check(args)


if __name__ == "__main__":
    sys.exit(main())
