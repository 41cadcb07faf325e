# SPDX-License-Identifier: GPL-2.0-only
"""cklib.lavaapi - a LAVA server's REST API (v0.2, lava-server 2023.01) as ck-lava.py's submit,
wait and fetch and make lab-check use it: Python's own urllib, no lavacli.

  Server(url, token)      one server; every request has a timeout and raises ApiError with
                          the method, the path, the HTTP status and the server's own words
  submit(definition)      POST jobs/: the ids of the new job (a MultiNode job has several)
  job(id), suites(id), tests(id), log(id)
                          GET jobs/N/, jobs/N/suites/, jobs/N/tests/ (every page, following
                          "next"), jobs/N/logs/ (the job's log, one YAML flow mapping a line)
  wait(server, ids, ...)  poll until every job is Finished; raises WaitTimeout naming those
                          that are not
  fetch(server, id, dir)  write lava-job.json (the job's record), lava-results.json (its
                          suites and test records as the API gave them) and lava-log.yaml
                          (its log as the API gave it): what cklib.lavajob and ck-report.py
                          --fleet read

Why the REST API and not lavacli: the API answers JSON that is stored as it came (the
records a report is then built from), needs no package beyond Python, and its paging and
errors are the server's own, not a client's rendering of them.
"""
import json
import os
import time
import urllib.error
import urllib.parse
import urllib.request

API = "/api/v0.2/"
FINISHED = "Finished"
JOB_FILE, RESULTS_FILE, LOG_FILE = "lava-job.json", "lava-results.json", "lava-log.yaml"
PAGE = 500          # records a page of jobs/N/tests/ (the server's own default is 50)
MAX_PAGES = 1000    # a "next" chain longer than this is the server's bug, not a long job


class ApiError(Exception):
    def __init__(self, method, path, status, what):
        super().__init__("%s %s: %s%s" % (method, path, "HTTP %d: " % status if status else "",
                                          what))
        self.status = status


class WaitTimeout(Exception):
    def __init__(self, jobs, seconds):
        left = ", ".join("%s (%s)" % (j["id"], j.get("state")) for j in jobs)
        super().__init__("not finished after %d s: %s" % (seconds, left))
        self.jobs = jobs


class Server:
    def __init__(self, url, token=None, timeout=30):
        self.url = url.rstrip("/")
        self.token = token
        self.timeout = timeout

    def request(self, method, path, body=None, raw=False):
        """The answer to @method @path (under /api/v0.2/ unless it is a full URL): JSON
        decoded, or the text with @raw."""
        url = path if path.startswith(("http://", "https://")) else self.url + API + path
        headers = {"Accept": "application/json"}
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        if self.token:
            headers["Authorization"] = "Token " + self.token
        req = urllib.request.Request(url, data=data, headers=headers, method=method)
        try:
            with urllib.request.urlopen(req, timeout=self.timeout) as r:
                text = r.read().decode("utf-8", errors="replace")
        except urllib.error.HTTPError as e:
            detail = e.read().decode("utf-8", errors="replace").strip()
            if detail.startswith("<"):      # Django's HTML error page: its log says why
                detail = "an HTML error page (the server's django.log says why)"
            raise ApiError(method, path, e.code, detail[:300] or e.reason)
        except (urllib.error.URLError, OSError) as e:
            reason = getattr(e, "reason", None) or e
            raise ApiError(method, path, 0, "no answer from %s: %s" % (self.url, reason))
        if raw:
            return text
        try:
            return json.loads(text)
        except ValueError:
            raise ApiError(method, path, 0, "the answer is not JSON: %r" % text[:120])

    def get(self, path, raw=False):
        return self.request("GET", path, raw=raw)

    def pages(self, path):
        """Every record of a paged list (DRF's {"results": [...], "next": URL})."""
        out, url = [], path
        for _ in range(MAX_PAGES):
            page = self.get(url)
            if not isinstance(page, dict) or not isinstance(page.get("results"), list):
                raise ApiError("GET", url, 0, "not a page of records")
            out += page["results"]
            url = page.get("next")
            if not url:
                return out
        raise ApiError("GET", path, 0, "more than %d pages" % MAX_PAGES)

    def version(self):
        return self.get("system/version/").get("version")

    def submit(self, definition):
        ans = self.request("POST", "jobs/", {"definition": definition})
        ids = ans.get("job_ids") if isinstance(ans, dict) else None
        if not isinstance(ids, list) or not ids:
            raise ApiError("POST", "jobs/", 0, "no job_ids in the answer: %r" % (ans,))
        return [int(i) for i in ids]

    def job(self, job_id):
        return self.get("jobs/%d/" % job_id)

    def cancel(self, job_id):
        return self.get("jobs/%d/cancel/" % job_id)

    def suites(self, job_id):
        return self.pages("jobs/%d/suites/" % job_id)

    def tests(self, job_id):
        return self.pages("jobs/%d/tests/?limit=%d" % (job_id, PAGE))

    def log(self, job_id):
        return self.get("jobs/%d/logs/" % job_id, raw=True)

    def worker(self, name):
        return self.get("workers/%s/" % urllib.parse.quote(name, safe=""))

    def devices(self):
        return self.pages("devices/")


def wait(server, ids, timeout, poll=5, progress=None, clock=time.monotonic, sleep=time.sleep):
    """{id: job record} once every job of @ids is Finished. @progress(job) is called when a
    job's state or health changes. Raises WaitTimeout after @timeout seconds."""
    end = clock() + timeout
    seen, done = {}, {}
    while True:
        for i in ids:
            if i in done:
                continue
            j = server.job(i)
            key = (j.get("state"), j.get("health"), j.get("actual_device"))
            if seen.get(i) != key:
                seen[i] = key
                if progress:
                    progress(j)
            if j.get("state") == FINISHED:
                done[i] = j
        if len(done) == len(ids):
            return done
        if clock() >= end:
            raise WaitTimeout([server.job(i) for i in ids if i not in done], timeout)
        sleep(min(poll, max(0.0, end - clock())))


def write_json(obj, path):
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(obj, f, indent=1, sort_keys=True)
        f.write("\n")
    os.replace(tmp, path)


def fetch(server, job_id, out):
    """Write the job's record, results and log into directory @out (made if missing);
    returns the job's record."""
    os.makedirs(out, exist_ok=True)
    job = server.job(job_id)
    results = {"job": job_id, "suites": server.suites(job_id), "tests": server.tests(job_id)}
    log = server.log(job_id)
    write_json(job, os.path.join(out, JOB_FILE))
    write_json(results, os.path.join(out, RESULTS_FILE))
    with open(os.path.join(out, LOG_FILE), "w", encoding="utf-8") as f:
        f.write(log)
    return job
