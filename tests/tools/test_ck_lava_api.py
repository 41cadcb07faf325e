# SPDX-License-Identifier: GPL-2.0-only
"""tools/ck-lava.py submit, wait and fetch and tools/cklib/lavaapi.py (issue 32) against a
stand-in for a LAVA server's REST API, written here from what lava-server 2023.01 answered in
make lab-check (tests/data/lab holds those answers): POST jobs/ answers {"job_ids": [...]},
lists come in pages ({"count", "next", "previous", "results"}) whose "next" is a full URL,
the token goes in "Authorization: Token ...", a refusal is an HTTP status with a body (an
HTML page for a server error). The stand-in serves the stored job's own records in small
pages, so what fetch writes must be those records again, every one.
"""
import json
import os
import threading
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from conftest import ROOT, assert_clean, run_tool

from cklib import lavaapi, lavajob

TOOL = "ck-lava"
STORED = os.path.join(ROOT, "tests", "data", "lab", "fetched")
TOKEN = "t0ken"
PAGE = 7            # the stand-in's page: smaller than any stored job's list


def stored(label):
    d = os.path.join(STORED, label)
    with open(os.path.join(d, lavaapi.JOB_FILE)) as f:
        job = json.load(f)
    with open(os.path.join(d, lavaapi.RESULTS_FILE)) as f:
        results = json.load(f)
    with open(os.path.join(d, lavaapi.LOG_FILE)) as f:
        log = f.read()
    return job, results, log


class Lava:
    """The stand-in's state: jobs by id, each (record, results, log); how many GETs of a job
    record it takes before the job is Finished; what was submitted."""

    def __init__(self, jobs, polls_to_finish=2):
        self.jobs = jobs
        self.polls = {i: 0 for i in jobs}
        self.polls_to_finish = polls_to_finish
        self.submitted = []
        self.next_id = max(jobs) + 1 if jobs else 1


def handler(lava):
    class H(BaseHTTPRequestHandler):
        def log_message(self, *_):
            pass

        def answer(self, status, body, ctype="application/json"):
            data = body.encode() if isinstance(body, str) else json.dumps(body).encode()
            self.send_response(status)
            self.send_header("Content-Type", ctype)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def authorized(self):
            return self.headers.get("Authorization") == "Token " + TOKEN

        def page(self, records, url):
            q = urllib.parse.parse_qs(url.query)
            limit = min(int(q.get("limit", ["50"])[0]), PAGE)
            offset = int(q.get("offset", ["0"])[0])
            nxt = None
            if offset + limit < len(records):
                nxt = "http://%s:%d%s?limit=%d&offset=%d" % (
                    self.server.server_address + (url.path, limit, offset + limit))
            return {"count": len(records), "next": nxt, "previous": None,
                    "results": records[offset:offset + limit]}

        def do_GET(self):
            url = urllib.parse.urlparse(self.path)
            parts = [p for p in url.path.split("/") if p]
            if parts[:2] != ["api", "v0.2"]:
                return self.answer(404, {"detail": "Not found."})
            parts = parts[2:]
            if parts == ["system", "version"]:
                return self.answer(200, {"version": "2023.01"})
            if len(parts) >= 2 and parts[0] == "jobs" and parts[1].isdigit():
                i = int(parts[1])
                if i not in lava.jobs:
                    return self.answer(404, {"detail": "Not found."})
                job, results, log = lava.jobs[i]
                if len(parts) == 2:
                    lava.polls[i] += 1
                    rec = dict(job)
                    if lava.polls[i] < lava.polls_to_finish:
                        rec.update(state="Running", health="Unknown")
                    return self.answer(200, rec)
                if parts[2] == "suites":
                    return self.answer(200, self.page(results["suites"], url))
                if parts[2] == "tests":
                    return self.answer(200, self.page(results["tests"], url))
                if parts[2] == "logs":
                    return self.answer(200, log, "application/yaml")
            return self.answer(404, {"detail": "Not found."})

        def do_POST(self):
            n = int(self.headers.get("Content-Length", "0"))
            body = json.loads(self.rfile.read(n))
            if not self.authorized():
                return self.answer(401, {"detail": "Invalid token."})
            if self.path != "/api/v0.2/jobs/":
                return self.answer(404, {"detail": "Not found."})
            if "definition" not in body:
                return self.answer(500, "<!DOCTYPE html><html>Server Error (500)</html>",
                                   "text/html")
            lava.submitted.append(body["definition"])
            i = lava.next_id
            lava.next_id += 1
            return self.answer(201, {"message": "job(s) successfully submitted",
                                     "job_ids": [i]})
    return H


@pytest.fixture
def server():
    jobs = {}
    for label in ("default-epyc", "hang", "fail"):
        job, results, log = stored(label)
        jobs[job["id"]] = (job, results, log)
    lava = Lava(jobs)
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler(lava))
    t = threading.Thread(target=httpd.serve_forever, daemon=True)
    t.start()
    lava.url = "http://127.0.0.1:%d" % httpd.server_address[1]
    yield lava
    httpd.shutdown()
    httpd.server_close()


def ids_of(lava, *labels):
    return [i for label in labels for i, (j, _, _) in lava.jobs.items()
            if j["id"] == stored(label)[0]["id"]]


def test_fetch_writes_the_servers_records_every_page(server, tmp_path):
    api = lavaapi.Server(server.url, TOKEN)
    (i,) = ids_of(server, "default-epyc")
    job = lavaapi.fetch(api, i, str(tmp_path / "j"))
    assert job["health"] == "Complete" or job["state"] == "Running"
    want_job, want_results, want_log = server.jobs[i]
    with open(tmp_path / "j" / lavaapi.RESULTS_FILE) as f:
        got = json.load(f)
    assert len(want_results["tests"]) > 3 * PAGE, "the stored job needs several pages"
    assert got["tests"] == want_results["tests"] and got["suites"] == want_results["suites"]
    with open(tmp_path / "j" / lavaapi.LOG_FILE) as f:
        assert f.read() == want_log


def test_wait_returns_once_every_job_finished_and_says_each_change(server):
    api = lavaapi.Server(server.url, TOKEN)
    ids = ids_of(server, "default-epyc", "hang")
    seen = []
    done = lavaapi.wait(api, ids, timeout=30, poll=0.05, progress=lambda j: seen.append(
        (j["id"], j["state"])))
    assert sorted(done) == sorted(ids)
    assert {done[i]["health"] for i in ids} == {"Complete", "Incomplete"}
    for i in ids:
        assert [s for j, s in seen if j == i] == ["Running", "Finished"]


def test_wait_runs_out_of_time_naming_the_jobs_left(server):
    server.polls_to_finish = 10 ** 6
    api = lavaapi.Server(server.url, TOKEN)
    now = [0.0]
    with pytest.raises(lavaapi.WaitTimeout) as e:
        lavaapi.wait(api, ids_of(server, "hang"), timeout=10, poll=5,
                     clock=lambda: now[0], sleep=lambda s: now.__setitem__(0, now[0] + s))
    assert "%d (Running)" % ids_of(server, "hang")[0] in str(e.value)


def test_submit_sends_the_token_and_gives_the_ids(server):
    api = lavaapi.Server(server.url, TOKEN)
    assert api.submit("job: 1\n") == [server.next_id - 1]
    assert server.submitted == ["job: 1\n"]
    with pytest.raises(lavaapi.ApiError) as e:
        lavaapi.Server(server.url, "wrong").submit("job: 2\n")
    assert e.value.status == 401 and "Invalid token" in str(e.value)


def test_a_server_error_page_is_named_not_pasted(server):
    api = lavaapi.Server(server.url, TOKEN)
    with pytest.raises(lavaapi.ApiError) as e:
        api.request("POST", "jobs/", {"no": "definition"})
    assert e.value.status == 500 and "<html" not in str(e.value)
    assert "django.log" in str(e.value)


def test_no_server_is_one_line():
    with pytest.raises(lavaapi.ApiError) as e:
        lavaapi.Server("http://127.0.0.1:9", TOKEN, timeout=5).version()
    assert "no answer from http://127.0.0.1:9" in str(e.value)


def test_the_fetched_job_is_a_fleet_row(server, tmp_path):
    (i,) = ids_of(server, "fail")
    lavaapi.fetch(lavaapi.Server(server.url, TOKEN), i, str(tmp_path / "fail"))
    r = run_tool("ck-report", "--fleet", str(tmp_path), "--json")
    assert_clean(r, "ck-report", allowed=(0,))
    (m,) = json.loads(r.out)["machines"]
    assert m["failed"] == ["deliberate.fails_on_purpose"]
    assert m["lava"]["problems"] == [] and m["lava"]["results"]["fail"] == 1


# -- the command line ----------------------------------------------------------------------

def cli(*args, token=TOKEN):
    env = {"LAVA_TOKEN": token} if token else {"LAVA_TOKEN": ""}
    return run_tool(TOOL, *args, env=env)


def test_cli_wait_and_fetch_say_how_jobs_ended(server, tmp_path):
    ids = [str(i) for i in ids_of(server, "default-epyc", "hang")]
    r = cli("wait", "--url", server.url, "--poll", "1", *ids)
    assert_clean(r, TOOL, allowed=(1,))         # the hang ended Incomplete
    assert b"Finished Incomplete" in r.out and b"Finished Complete" in r.out
    r = cli("fetch", "--url", server.url, "--out", str(tmp_path), *ids)
    assert_clean(r, TOOL, allowed=(0,))
    assert sorted(os.listdir(tmp_path)) == sorted("job-" + i for i in ids)


def test_cli_submit_checks_the_job_and_needs_a_token(server, tmp_path):
    job = tmp_path / "job.yaml"
    r = run_tool(TOOL, "job", "--template", "qemu-kernel", "--cmdline", "tests=cpu exit=auto",
                 "--image-url", "file:///x.efi", "-o", str(job))
    if r.status == 3:
        pytest.skip("no lava_common here")
    r = cli("submit", "--url", server.url, str(job))
    assert_clean(r, TOOL, allowed=(0,))
    assert server.submitted and "tests=cpu exit=auto" in server.submitted[0]
    assert_clean(cli("submit", "--url", server.url, str(job), token=None), TOOL, allowed=(2,))
    job.write_text("device_type: qemu\n")
    assert_clean(cli("submit", "--url", server.url, str(job)), TOOL, allowed=(1,))
    assert_clean(cli("wait", "--url", "http://127.0.0.1:9", "1"), TOOL, allowed=(3,))


def test_the_log_reader_drops_lavas_echo_and_keeps_feedback():
    items = lavajob.log_lines("\n".join([
        '- {"dt": "t", "lvl": "target", "msg": "copykernel: exit status 0 (all tests passed)"}',
        '- {"dt": "t", "lvl": "input", "msg": "poweroff\\n"}',
        '- {"dt": "t", "lvl": "target", "msg": "poweroff"}',
        '- {"dt": "t", "lvl": "feedback", "msg": "late line", "ns": "common"}',
        '{"dt": "t", "lvl": "target", "msg": "{\\\\\\"schema\\\\\\":1}"}']), "x")
    assert lavajob.serial(items) == ["copykernel: exit status 0 (all tests passed)",
                                     "late line", '{"schema":1}']
