# SPDX-License-Identifier: GPL-2.0-only
"""cklib - the Python shared by copykernel's host tools (tools/*.py).

  common        exit statuses, the one-line error contract, strict JSON, bounded numbers
                for argparse, the never-a-traceback wrapper, loading a tool as a module
  records       the JSON-lines records of benchmark output (ck-report.py)
  seriallog     the image's serial log read once for every tool: the pattern of each line
                a tool takes, KTAP's line grammar (ktap-check.py's too), the summary verdicts
  compare       ck-report.py --compare: the change of each ratio between two builds
  fleet         ck-report.py --fleet: one row per machine, outliers among peers
  plots         ck-report.py --plot and --fleet --plot (matplotlib)
  kcidb         ck-report.py --kcidb: a run or a fleet as one KernelCI KCIDB v5.3 document
  lavaids       LAVA's monitor patterns, the dotted ids of a KTAP log and the comparison of
                a run's results with lava-run's record (ck-lava.py check)
  lavaapi       a LAVA server's REST API: submit, wait, fetch (ck-lava.py, make lab-check)
  lavajob       a LAVA job's log, record and results as fetch wrote them, and whether its
                results are the run's own cases one each (the fleet's LAVA table)
  lab           make lab-check's devices and jobs, what each must show, and the comparison
                of the reports from the server's results with those from the serial logs
  schema        the JSON Schema of every record (docs/schema/): validation for make check
                and ck-validate.py
  soak          the soak= value and a LAVA monitor's minutes for it (ck-lava.py), the
                soak_summary record as a row of the fleet's soak table
  inject        a QEMU guest's RAM in a shared file and the host injector beside it
                (ck-run.py --inject, memtest-compare.py), the faults of the scenarios
  vt100         a screen-drawing serial console replayed into a grid (memtest86+'s)

The tools' file names hold '-', so they are not modules themselves; each one puts its own
directory on sys.path before `from cklib import ...`.
"""
