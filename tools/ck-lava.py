#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""ck-lava.py - render copykernel's LAVA jobs and devices, checked by LAVA's own schemas.

  ck-lava.py job --template qemu-kernel --preset bringup --image-url file:///x/copykernel.efi
  ck-lava.py job --template ipxe --cmdline 'tests=all exit=reset' --image-url http://h/ck.efi
  ck-lava.py job --template ipxe --preset soak --soak 12h --image-url http://h/ck.efi
  ck-lava.py device qemu-ovmf --templates /usr/share/lava-server/device-types -o dev.yaml
  ck-lava.py validate job.yaml
  ck-lava.py check                 make lava-check: lava-run offline on QEMU, compared with KTAP
  ck-lava.py submit --url URL --token-file F job.yaml...   send jobs to a server: their ids
  ck-lava.py wait --url URL --token-file F [--timeout S] ID...   until every job is Finished
  ck-lava.py fetch --url URL --token-file F --out DIR ID...   each job's record, results and
                                   log into DIR/job-ID (what ck-report.py --fleet DIR reads)

Job templates live in lava/jobs (qemu-disk, qemu-kernel, ipxe, grub), device dictionaries in
lava/devices; a device dictionary extends one of lava-server's device-type templates, so
`device` needs those (Debian package lava-server, or its .deb unpacked: --templates DIR).
Every job and device is checked with lava_common's schema (Debian package lava-common, a
dependency of lava-dispatcher) before it is written.

With soak= (--preset soak, or in --cmdline) the monitor's minutes come from the soak's
length (tools/cklib/soak.py) and a monitor `copykernel-soak` records soak.nodeN and soak.

submit, wait and fetch talk to a LAVA server's REST API (tools/cklib/lavaapi.py says why not
lavacli); the token (a user's API token, `lava-server manage tokens add --user NAME`) comes
from --token-file or the environment's LAVA_TOKEN, never the command line.

Exit statuses: 0 written (or valid; submitted; every job finished; fetched); 1 LAVA's schema
rejected it (wait: a job ended other than Complete; fetch: a job has not finished); 2 usage
error (also a command line that cannot go into a job, or a soak that cannot fit in one);
3 bad input (missing template or file, YAML that does not parse, lava_common or jinja2 not
installed; the server refused a request or did not answer; wait: the time ran out).
"""
import argparse
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cklib.common import bounded  # noqa: E402
# The monitors' patterns and the ids of a run's results (the tests read them from here too).
from cklib.lavaids import (BENCH_PATTERN, PATTERN, SOAK_PATTERN,  # noqa: E402,F401
                           bench_figures, compare, ktap_cases, monitor_results, slug,
                           soak_verdict)
from cklib.soak import SoakValue, monitor_minutes, parse_limit, soak_of  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LAVA_DIR = os.path.join(ROOT, "lava")
SERVER_TEMPLATES = "/usr/share/lava-server/device-types"

# The longest monitor a job from this tool gets (--test-minutes' bound): 24 hours.
MONITOR_LIMIT = 24 * 60

# name: (command line, minutes for the test action)
PRESETS = {
    "bringup": ("tests=all console=ttyS0,115200 exit=auto", 15),
    "bench-rfc": ("tests=cpu,tsc bench=rfc bench_runs=10 exit=auto", 60),
    # inject=qemu needs ck-run.py's monitor relay, which a LAVA job does not have: the
    # emulated backend runs the same recovery path.
    "mce-qemu": ("tests=cmdline,cpu,mce inject=emulate exit=qemu", 10),
    # The soak alone, for --soak (default 1h); the monitor's minutes come from its length.
    "soak": ("tests=none soak={soak} console=ttyS0,115200 exit=auto", None),
}
SOAK_DEFAULT = "1h"

TEMPLATES = {
    # name: (file, device types it is written for, what it needs)
    "qemu-disk": ("qemu-disk.yaml.jinja2", ("qemu",), "disk_url"),
    "qemu-kernel": ("qemu-kernel.yaml.jinja2", ("qemu",), "image_url"),
    "ipxe": ("ipxe.yaml.jinja2", ("x86",), "image_url"),
    "grub": ("grub.yaml.jinja2", None, "image_url"),
}

# A word of the command line: key=value with the characters the image's keys and values use.
# Quotes, braces, spaces and '#' would break the YAML, LAVA's {SUBSTITUTIONS}, a shell's
# -append or GRUB's and iPXE's parsers.
WORD = re.compile(r"^[a-z_]+=[A-Za-z0-9,._:-]+$")
# A device tag (LAVA's tags are names) and a path QEMU's -chardev logfile= can take as is
# (no comma: QEMU's option separator; no quote or space: the job's image_arg).
TAG = re.compile(r"^[A-Za-z0-9_.-]+$")
SERIAL_LOG = re.compile(r"^/[A-Za-z0-9/._-]+$")


class Fail(Exception):
    def __init__(self, status, msg):
        super().__init__(msg)
        self.status = status


def need(module):
    try:
        return __import__(module)
    except ImportError:
        pkg = {"yaml": "python3-yaml", "jinja2": "python3-jinja2",
               "lava_common": "lava-common"}.get(module.split(".")[0], module)
        raise Fail(3, f"Python module {module} missing: install the Debian package {pkg} "
                      "(and run this with /usr/bin/python3)")


def check_cmdline(cmdline):
    words = cmdline.split()
    if not words:
        raise Fail(2, "empty command line")
    for w in words:
        if not WORD.match(w):
            raise Fail(2, f"command-line word {w!r} is not key=value of [A-Za-z0-9,._:-]")
    return " ".join(words)


def lava_validate_job(data, where):
    need("lava_common.schemas")
    import lava_common.schemas as s
    try:
        s.validate(data, strict=True)
    except Exception as e:  # voluptuous.Invalid and friends
        raise Fail(1, f"{where}: LAVA's job schema rejects it: {e}")


def lava_validate_device(data, where):
    need("lava_common.schemas.device")
    import lava_common.schemas.device as d
    try:
        d.validate(data)
    except Exception as e:
        raise Fail(1, f"{where}: LAVA's device schema rejects it: {e}")


def load_yaml(text, where):
    yaml = need("yaml")
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as e:
        raise Fail(3, f"{where}: not YAML: {str(e).splitlines()[0]}")
    if not isinstance(data, dict):
        raise Fail(3, f"{where}: not a YAML mapping")
    return data


def render_job(template, cmdline, image_url=None, disk_url=None, device_type=None,
               name=None, job_minutes=None, test_minutes=10, validate=True, tags=(),
               serial_log=None):
    """The job's YAML text for @template, validated (unless @validate is false: then only
    jinja2 is needed); raises Fail. @tags: the device tags the job asks for; @serial_log (QEMU
    templates): a file on the worker where QEMU also writes the serial output, a copy of the
    console that does not pass through LAVA."""
    if template not in TEMPLATES:
        raise Fail(2, f"unknown template {template!r}: {', '.join(TEMPLATES)}")
    fname, types, needs = TEMPLATES[template]
    if device_type is None:
        device_type = types[0] if types else "upsquare"
    elif types and device_type not in types:
        raise Fail(2, f"template {template} is for device type {types[0]}, not {device_type}")
    url = disk_url if needs == "disk_url" else image_url
    if not url:
        raise Fail(2, f"template {template} needs --{needs.replace('_', '-')}")
    if any(c in url for c in "'\" {}"):
        raise Fail(2, f"URL {url!r} has quotes, spaces or braces")
    cmdline = check_cmdline(cmdline)
    for tag in tags:
        if not TAG.match(tag):
            raise Fail(2, f"device tag {tag!r} is not [A-Za-z0-9_.-]+")
    if serial_log is not None:
        if not template.startswith("qemu"):
            raise Fail(2, "--serial-log is for the QEMU templates (a file QEMU writes)")
        if not SERIAL_LOG.match(serial_log):
            raise Fail(2, f"--serial-log {serial_log!r} is not an absolute path of "
                          "[A-Za-z0-9/._-]")
    # The image takes the last bench= word; with a preset, figures follow the KTAP totals.
    bench = [w for w in cmdline.split() if w.startswith("bench=")][-1:] not in ([], ["bench=none"])
    soak = soak_of(cmdline) not in (None, "off")
    if soak and bench:
        raise Fail(2, "soak= and bench= in one job: the figures come after the soak and its "
                      "monitor; give the benchmarks a job of their own")
    jinja2 = need("jinja2")
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(os.path.join(LAVA_DIR, "jobs")),
                             undefined=jinja2.StrictUndefined, autoescape=False,
                             trim_blocks=True, keep_trailing_newline=True)
    try:
        text = env.get_template(fname).render(
            template=fname, cmdline=cmdline, image_url=image_url, disk_url=disk_url,
            device_type=device_type, name=name or template, pattern=PATTERN,
            bench=bench, bench_pattern=BENCH_PATTERN, soak=soak,
            soak_pattern=SOAK_PATTERN, tags=list(tags), serial_log=serial_log,
            job_minutes=job_minutes or test_minutes + 5, test_minutes=test_minutes).lstrip()
    except jinja2.TemplateError as e:
        raise Fail(3, f"lava/jobs/{fname}: {e}")
    if validate:
        lava_validate_job(load_yaml(text, template), f"job from {template}")
    return text


def job_monitors(cmdline, template="qemu-kernel"):
    """The monitors a job of @cmdline gets (name, start, end, pattern), as rendered; needs
    jinja2 and yaml, not LAVA (the QEMU scenarios run them over the image's serial log with
    cklib.lavaids.monitor_results). Raises Fail as render_job does."""
    text = render_job(template, cmdline, image_url="file:///copykernel.efi",
                      disk_url="file:///copykernel.img", validate=False)
    job = load_yaml(text, template)
    return [a["test"]["monitors"] for a in job["actions"] if "test" in a][0]


def job_minutes(cmdline, given, default):
    """The monitor's minutes for @cmdline: --test-minutes (@given), else derived from its
    soak=, else @default. Raises Fail(2) for a soak that cannot fit in a job."""
    try:
        if soak_of(cmdline) is not None:
            parse_limit(soak_of(cmdline))
        minutes = monitor_minutes(cmdline, given, MONITOR_LIMIT)
    except SoakValue as e:
        raise Fail(2, str(e))
    return default if minutes is None else minutes


def render_device(name, templates=None):
    """A device dictionary from lava/devices rendered over lava-server's device types."""
    path = os.path.join(LAVA_DIR, "devices", name + ".jinja2")
    if not os.path.isfile(path):
        have = sorted(f[:-7] for f in os.listdir(os.path.join(LAVA_DIR, "devices"))
                      if f.endswith(".jinja2"))
        raise Fail(2, f"unknown device {name!r}: {', '.join(have)}")
    templates = templates or SERVER_TEMPLATES
    if not os.path.isfile(os.path.join(templates, "base.jinja2")):
        raise Fail(3, f"{templates}: no lava-server device-type templates (base.jinja2); "
                      "install lava-server or unpack its .deb and give --templates")
    jinja2 = need("jinja2")
    # As lava-server renders device dictionaries: blocks trimmed, nothing escaped.
    env = jinja2.Environment(loader=jinja2.FileSystemLoader([os.path.dirname(path), templates]),
                             trim_blocks=True, autoescape=False)
    try:
        text = env.get_template(name + ".jinja2").render().lstrip()
    except jinja2.TemplateError as e:
        raise Fail(3, f"{path}: {e}")
    lava_validate_device(load_yaml(text, path), f"device {name}")
    return ("# SPDX-License-Identifier: GPL-2.0-only\n"
            f"# Rendered by tools/ck-lava.py from lava/devices/{name}.jinja2\n" + text)


# ---- comparing a run's KTAP with what LAVA recorded (make lava-check) ----------------------

def lava_log(lines):
    """From lava-run's output (one YAML flow mapping a line, JSON but for tags such as
    `! "486106"`): the serial lines, the results of the copykernel monitors
    {test_case_id: result} and whether the job finished correctly."""
    import json
    yaml = need("yaml")
    serial, results, finished, job = [], {}, False, None
    for raw in lines:
        raw = raw.strip()
        if not raw.startswith("{"):
            continue
        try:
            rec = json.loads(raw)
        except ValueError:
            try:
                rec = yaml.load(raw, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
            except yaml.YAMLError:
                continue
        if not isinstance(rec, dict):
            continue
        lvl, msg = rec.get("lvl"), rec.get("msg")
        if lvl == "target" and isinstance(msg, str):
            serial.append(msg.replace('\\"', '"'))   # lava-run writes '"' as '\"'
        elif lvl == "results" and isinstance(msg, dict):
            if msg.get("definition") == "lava" and msg.get("case") == "job":
                job = msg.get("result")
            elif str(msg.get("definition", "")).startswith("copykernel"):
                tid = (msg.get("extra") or {}).get("test_case_id", msg.get("case"))
                res = msg.get("result")
                if msg.get("units"):
                    res = f"{res} {msg.get('measurement')} {msg.get('units')}"
                results[tid] = "duplicate" if tid in results else res
        elif lvl == "info" and msg == "Job finished correctly":
            finished = True
    return serial, results, finished and job == "pass"


def sh(cmd, timeout, **kw):
    """Run @cmd in its own process group; kill the whole group at @timeout. (status, output)"""
    import subprocess
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                         errors="replace", start_new_session=True, **kw)
    try:
        out, _ = p.communicate(timeout=timeout)
        return p.returncode, out
    except subprocess.TimeoutExpired:
        import signal
        os.killpg(p.pid, signal.SIGKILL)
        out, _ = p.communicate()
        return None, out


def ensure_lava_run(log):
    import shutil
    if shutil.which("lava-run"):
        return
    if os.geteuid() != 0:
        raise Fail(3, "lava-run not found: install the Debian package lava-dispatcher "
                      "(apt-get install --no-install-recommends lava-dispatcher)")
    log("installing lava-dispatcher (apt-get install --no-install-recommends)")
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    cmd = ["apt-get", "install", "-y", "-qq", "--no-install-recommends", "lava-dispatcher"]
    st, out = sh(cmd, 1200, env=env)
    if st != 0:
        sh(["apt-get", "update", "-qq"], 600, env=env)
        st, out = sh(cmd, 1200, env=env)
    if st != 0 or not shutil.which("lava-run"):
        raise Fail(3, "could not install lava-dispatcher: " + (out or "").strip()[-300:])


def device_templates(work, log):
    """lava-server's device-type templates: installed, unpacked before, or unpacked now from
    the lava-server .deb (apt-get download, no install: the server itself is not needed)."""
    unpacked = os.path.join(work, "lava-server", "usr", "share", "lava-server", "device-types")
    for d in (SERVER_TEMPLATES, unpacked):
        if os.path.isfile(os.path.join(d, "base.jinja2")):
            return d
    if os.geteuid() != 0:
        return None
    log("fetching lava-server's device-type templates (apt-get download lava-server)")
    st, out = sh(["apt-get", "download", "lava-server"], 600, cwd=work)
    debs = [f for f in os.listdir(work) if f.startswith("lava-server_") and f.endswith(".deb")]
    if st != 0 or not debs:
        return None
    # Only the templates: the Makefile reads every *.d under build/ (the .deb has dispatcher.d).
    dest = os.path.join(work, "lava-server")
    os.makedirs(dest, exist_ok=True)
    st, out = sh(["sh", "-c", 'dpkg-deb --fsys-tarfile "$1" | tar -x -C "$2" '
                  "./usr/share/lava-server/device-types", "sh", os.path.join(work, debs[0]),
                  dest], 120)
    return unpacked if st == 0 and os.path.isfile(os.path.join(unpacked, "base.jinja2")) else None


def run_check(build, cmdline, timeout, log):
    """make lava-check: lava-run offline on the QEMU disk-image and -kernel jobs, each compared
    case by case with the KTAP of the same run. Returns the number of failed jobs."""
    import time
    efi = os.path.join(build, "copykernel.efi")
    if not os.path.isfile(efi):
        raise Fail(3, f"{efi}: no image (make all)")
    cmdline = check_cmdline(cmdline)
    work = os.path.abspath(os.path.join(build, "lava"))
    os.makedirs(work, exist_ok=True)
    ensure_lava_run(log)
    committed = os.path.join(LAVA_DIR, "devices", "rendered", "qemu-ovmf.yaml")
    device = os.path.join(work, "qemu-ovmf.yaml")
    templates = device_templates(work, log)
    if templates:
        text = render_device("qemu-ovmf", templates)
        write(text, device)
        note = "rendered from " + templates
        if text != read(committed):
            note += " (differs from lava/devices/rendered/qemu-ovmf.yaml: re-render it)"
    else:
        write(read(committed), device)
        note = "lava/devices/rendered/qemu-ovmf.yaml (no lava-server templates here)"
    log(f"device: {note}")
    dispatcher = os.path.join(work, "dispatcher.yaml")
    write("# SPDX-License-Identifier: GPL-2.0-only\n{}\n", dispatcher)
    cmdfile = os.path.join(work, "copykernel.cmdline")
    write(f"# make lava-check\n{cmdline}\n", cmdfile)
    disk = os.path.join(work, "disk.img")
    st, out = sh([sys.executable, os.path.join(ROOT, "tools", "mkimg.py"), "--efi", efi,
                  "--cmdline", cmdfile, "--out", disk], 120)
    if st != 0:
        raise Fail(3, f"mkimg.py failed: {out.strip()[-300:]}")
    failed = 0
    minutes = max(1, (timeout + 59) // 60)
    for template in ("qemu-disk", "qemu-kernel"):
        t0 = time.monotonic()
        jobdir = os.path.join(work, template)
        os.makedirs(jobdir, exist_ok=True)
        job = os.path.join(jobdir, "job.yaml")
        write(render_job(template, cmdline, image_url="file://" + os.path.abspath(efi),
                         disk_url="file://" + disk, name="lava-check",
                         test_minutes=minutes), job)
        job_id = str(os.getpid() * 10 + (template == "qemu-kernel"))
        st, out = sh(["lava-run", "--job-id", job_id, "--output-dir",
                      os.path.join(jobdir, "out"), "--device", device, "--dispatcher",
                      dispatcher, job], timeout + 60)
        write(out, os.path.join(jobdir, "lava-run.log"))
        serial, results, finished = lava_log(out.splitlines())
        write("\n".join(serial) + "\n", os.path.join(jobdir, "serial.log"))
        problems = []
        if st is None:
            problems.append(f"lava-run still running after {timeout + 60} s: killed")
        elif st != 0:
            problems.append(f"lava-run exit status {st}")
        if not finished:
            problems.append("no 'Job finished correctly' with the job result pass")
        try:
            ktap = ktap_cases(serial)
        except ValueError as e:
            ktap = {}
            problems.append(f"KTAP: {e}")
        if not ktap:
            problems.append("no KTAP case in the serial output")
        # The disk job's command line travels in copykernel.cmdline, the other's in
        # LoadOptions (-append); the image names the source and quotes what it read.
        src = "copykernel.cmdline" if template == "qemu-disk" else "LoadOptions"
        if f"cmdline: from {src}: '{cmdline}'" not in serial:
            got = [ln for ln in serial if ln.startswith("cmdline: from ")]
            problems.append(f"the command line did not reach the image through {src}: {got}")
        figures = bench_figures(serial)
        if "bench=" in cmdline and not figures:
            problems.append("no benchmark figure in the serial output")
        verdict = soak_verdict(serial) if soak_of(cmdline) not in (None, "off") else {}
        if soak_of(cmdline) not in (None, "off") and not verdict:
            problems.append("soak= but no '# copykernel-soak: result=' line in the serial output")
        problems += compare({**ktap, **figures, **verdict}, results)
        secs = time.monotonic() - t0
        counts = {r: sum(1 for v in ktap.values() if v == r) for r in ("pass", "fail", "skip")}
        if problems:
            failed += 1
            log(f"{template}: FAIL ({secs:.0f} s; logs in {jobdir})")
            for p in problems[:40]:
                log(f"  {p}")
        else:
            log(f"{template}: ok: {len(ktap)} KTAP cases (pass {counts['pass']}, fail "
                f"{counts['fail']}, skip {counts['skip']}) and {len(figures)} benchmark "
                f"figures recorded by LAVA with the same outcome and value; job finished "
                f"correctly ({secs:.0f} s)")
    return failed


# ---- a LAVA server's API: submit, wait, fetch --------------------------------------------

def api_token(path):
    if path:
        token = read(path).strip()
    else:
        token = os.environ.get("LAVA_TOKEN", "").strip()
    if not token:
        raise Fail(2, "no API token: give --token-file FILE or set LAVA_TOKEN")
    return token


def api_command(args):
    """submit, wait or fetch; the server's refusals and silences are Fail(3)."""
    from cklib import lavaapi
    server = lavaapi.Server(args.url, api_token(args.token_file), args.http_timeout)
    try:
        if args.cmd == "submit":
            for f in args.files:
                text = read(f)
                lava_validate_job(load_yaml(text, f), f)
                print("%s: %s" % (f, " ".join(str(i) for i in server.submit(text))))
            return 0
        if args.cmd == "wait":
            def show(j):
                print("job %s: %s %s%s" % (j.get("id"), j.get("state"), j.get("health"),
                                           " on " + j["actual_device"]
                                           if j.get("actual_device") else ""), flush=True)
            done = lavaapi.wait(server, args.ids, args.timeout, args.poll, progress=show)
            bad = ["%d (%s)" % (i, j.get("health")) for i, j in sorted(done.items())
                   if j.get("health") != "Complete"]
            if bad:
                print("ck-lava: not every job ended Complete: %s" % ", ".join(bad),
                      file=sys.stderr)
            return 1 if bad else 0
        late = []
        for i in args.ids:
            job = lavaapi.fetch(server, i, os.path.join(args.out, "job-%d" % i))
            print("job %d: %s %s -> %s" % (i, job.get("state"), job.get("health"),
                                           os.path.join(args.out, "job-%d" % i)))
            if job.get("state") != lavaapi.FINISHED:
                late.append(i)
        if late:
            print("ck-lava: not finished, fetched as they are: %s" %
                  " ".join(str(i) for i in late), file=sys.stderr)
        return 1 if late else 0
    except lavaapi.ApiError as e:
        raise Fail(3, str(e))
    except lavaapi.WaitTimeout as e:
        raise Fail(3, str(e))
    except OSError as e:
        raise Fail(3, f"{args.out}: {e.strerror}")


def write(text, out):
    if out in (None, "-"):
        sys.stdout.write(text)
        return
    try:
        with open(out, "w") as f:
            f.write(text)
    except OSError as e:
        raise Fail(3, f"{out}: {e.strerror}")


def read(path):
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except (OSError, UnicodeDecodeError) as e:
        raise Fail(3, f"{path}: {getattr(e, 'strerror', None) or e}")


def main(argv=None):
    ap = argparse.ArgumentParser(
        prog="ck-lava.py", description=__doc__.split("\n")[0],
        epilog="Exit statuses: 0 written or valid, 1 rejected by LAVA's schema, 2 usage "
               "error, 3 bad input or missing package.")
    sub = ap.add_subparsers(dest="cmd", required=True)
    j = sub.add_parser("job", help="render a job from lava/jobs")
    j.add_argument("--template", required=True, choices=sorted(TEMPLATES))
    g = j.add_mutually_exclusive_group(required=True)
    g.add_argument("--cmdline", help="the image's command line (key=value words)")
    g.add_argument("--preset", choices=sorted(PRESETS))
    j.add_argument("--device-type", help="default: the template's (qemu, x86, upsquare)")
    j.add_argument("--image-url", help="copykernel.efi (qemu-kernel, ipxe, grub)")
    j.add_argument("--disk-url", help="the GPT disk image, make img (qemu-disk)")
    j.add_argument("--name", help="job name suffix")
    j.add_argument("--test-minutes", type=bounded(int, 1, MONITOR_LIMIT, "a number of minutes"),
                   help="timeout of the monitor, 1..1440; with soak=DURATION, by default the "
                   "soak's minutes and 10 (tests=none) or 15 more, and never less")
    j.add_argument("--soak", metavar="VALUE", help="with --preset soak: the soak= value, a "
                   f"duration up to 23h (30s, 90m, 12h) or passes:N with --test-minutes "
                   f"(default {SOAK_DEFAULT})")
    j.add_argument("--tags", default="", help="comma-separated device tags the job asks "
                   "for (the scheduler then picks a device with all of them)")
    j.add_argument("--serial-log", metavar="PATH", help="QEMU templates: a file on the worker "
                   "where QEMU also writes the serial output (-chardev logfile=)")
    j.add_argument("-o", "--out", help="output file (default stdout)")
    d = sub.add_parser("device", help="render a device dictionary from lava/devices")
    d.add_argument("name")
    d.add_argument("--templates", help=f"device-type templates (default {SERVER_TEMPLATES})")
    d.add_argument("-o", "--out")
    v = sub.add_parser("validate", help="check job YAML files with LAVA's job schema")
    v.add_argument("files", nargs="+")
    v.add_argument("--device", action="store_true", help="they are device YAMLs")
    c = sub.add_parser("check", help="make lava-check: lava-run offline on QEMU, compared "
                                     "with the run's KTAP")
    c.add_argument("--build", default=os.path.join(ROOT, "build"))
    c.add_argument("--cmdline", default="tests=cmdline,cpu,tsc,mce bench=clear bench_tiny=yes "
                   "bench_runs=3 exit=qemu", help="mce brings skipped and parameterised cases, "
                   "bench=clear figures")
    c.add_argument("--timeout", type=bounded(int, 10, 7200, "a number of seconds"), default=240,
                   help="seconds per job")
    for name, what in (("submit", "send job files to a LAVA server; prints their ids"),
                       ("wait", "wait until every job is Finished; prints how each ended"),
                       ("fetch", "write each job's record, results and log for ck-report")):
        a = sub.add_parser(name, help=what)
        a.add_argument("--url", required=True, help="the server, http://HOST[:PORT]")
        a.add_argument("--token-file", help="a file holding the API token (else $LAVA_TOKEN)")
        a.add_argument("--http-timeout", type=bounded(int, 1, 600, "a number of seconds"),
                       default=30, help="seconds a request may take")
        if name == "submit":
            a.add_argument("files", nargs="+")
        else:
            a.add_argument("ids", nargs="+", type=bounded(int, 1, 2 ** 31, "a job id"))
        if name == "wait":
            a.add_argument("--timeout", type=bounded(int, 1, 7 * 86400, "a number of seconds"),
                           default=3600, help="seconds to wait for all of them")
            a.add_argument("--poll", type=bounded(int, 1, 600, "a number of seconds"),
                           default=10, help="seconds between two looks")
        if name == "fetch":
            a.add_argument("--out", required=True, help="a directory: DIR/job-ID per job")
    sub.add_parser("pattern", help="print the monitor patterns: cases, benchmark figures")
    args = ap.parse_args(argv)
    try:
        if args.cmd == "job":
            if args.soak is not None and args.preset != "soak":
                raise Fail(2, "--soak goes with --preset soak (else put soak= in --cmdline)")
            if args.preset:
                cmdline, minutes = PRESETS[args.preset]
                cmdline = cmdline.format(soak=args.soak or SOAK_DEFAULT)
            else:
                cmdline, minutes = args.cmdline, 10
            minutes = job_minutes(cmdline, args.test_minutes, minutes)
            write(render_job(args.template, cmdline, image_url=args.image_url,
                             disk_url=args.disk_url, device_type=args.device_type,
                             name=args.name or args.preset, test_minutes=minutes,
                             tags=[t for t in args.tags.split(",") if t],
                             serial_log=args.serial_log), args.out)
        elif args.cmd == "device":
            write(render_device(args.name, args.templates), args.out)
        elif args.cmd == "validate":
            for f in args.files:
                data = load_yaml(read(f), f)
                (lava_validate_device if args.device else lava_validate_job)(data, f)
                print(f"{f}: valid")
        elif args.cmd == "check":
            def log(msg):
                print(f"lava-check: {msg}", flush=True)
            if run_check(args.build, args.cmdline, args.timeout, log):
                return 1
            log("ok")
        elif args.cmd in ("submit", "wait", "fetch"):
            return api_command(args)
        else:
            print(PATTERN)
            print(BENCH_PATTERN)
    except Fail as e:
        print(f"ck-lava: {e}", file=sys.stderr)
        return e.status
    return 0


if __name__ == "__main__":
    sys.exit(main())
