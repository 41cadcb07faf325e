# SPDX-License-Identifier: GPL-2.0-only
"""cklib.vt100 - a serial console that draws a screen (cursor moves, not lines) replayed into a
grid of characters, as a VT100 would show it: memtest86+'s serial output (REFERENCE.md
section 10), which sends each changed region of its 80x25 screen as `ESC [ row ; col H`
followed by the characters, `ESC [ 2 J` to clear, `ESC [ 7 m` / `ESC [ 0 m` for inverse.

Handled: printable ASCII at the cursor (moving right; past the last column to the next row's
start, past the last row the screen scrolls up), CR, LF, BS, TAB, `ESC [ r ; c H` and `f`
(cursor position, 1-based, missing numbers 1), `A B C D` (cursor up, down, right, left),
`J` (0 below, 1 above, 2 all) and `K` (0 right, 1 left, 2 the line). Any other CSI sequence
(colours `m`, modes `h`/`l`, `ESC [ = 3 h` of the firmware) and any other escape are read
whole and ignored.
"""
import re

CSI = re.compile(r"\x1b\[([0-9;?=>]*)([@-~])")
OTHER_ESC = re.compile(r"\x1b[()][A-Za-z0-9]|\x1b[@-Z\\-_]")


class Screen:
    def __init__(self, cols=80, rows=25):
        self.cols, self.rows = cols, rows
        self.grid = [[" "] * cols for _ in range(rows)]
        self.r = self.c = 0
        self.pending = ""       # an escape sequence cut by the end of a chunk

    def row_text(self, r):
        return "".join(self.grid[r]).rstrip()

    def text(self):
        return "\n".join(self.row_text(r) for r in range(self.rows))

    def _scroll(self):
        self.grid.pop(0)
        self.grid.append([" "] * self.cols)

    def _put(self, ch):
        if self.c >= self.cols:
            self.c = 0
            self._newline()
        self.grid[self.r][self.c] = ch
        self.c += 1

    def _newline(self):
        if self.r == self.rows - 1:
            self._scroll()
        else:
            self.r += 1

    def _clamp(self):
        self.r = max(0, min(self.rows - 1, self.r))
        self.c = max(0, min(self.cols - 1, self.c))

    def _erase(self, r, c0, c1):
        for c in range(max(0, c0), min(self.cols, c1)):
            self.grid[r][c] = " "

    def _csi(self, params, final):
        nums = [int(p) if p.isdigit() else None for p in params.lstrip("?=>").split(";")]
        n = nums[0] if nums and nums[0] is not None else None
        if params[:1] in ("?", "=", ">"):
            return
        if final in "Hf":
            self.r = (nums[0] or 1) - 1 if nums and nums[0] else 0
            self.c = (nums[1] or 1) - 1 if len(nums) > 1 and nums[1] else 0
            self._clamp()
        elif final in "ABCD":
            step = n or 1
            dr, dc = {"A": (-step, 0), "B": (step, 0), "C": (0, step), "D": (0, -step)}[final]
            self.r, self.c = self.r + dr, self.c + dc
            self._clamp()
        elif final == "J":
            mode = n or 0
            rows = {0: range(self.r + 1, self.rows), 1: range(0, self.r),
                    2: range(self.rows)}.get(mode, [])
            for r in rows:
                self._erase(r, 0, self.cols)
            if mode == 0:
                self._erase(self.r, self.c, self.cols)
            elif mode == 1:
                self._erase(self.r, 0, self.c + 1)
        elif final == "K":
            mode = n or 0
            span = {0: (self.c, self.cols), 1: (0, self.c + 1), 2: (0, self.cols)}.get(mode)
            if span:
                self._erase(self.r, *span)

    def feed(self, data):
        """Replay @data (bytes or text) onto the screen."""
        if isinstance(data, bytes):
            data = data.decode("latin-1")
        s, i = self.pending + data, 0
        self.pending = ""
        while i < len(s):
            ch = s[i]
            if ch == "\x1b":
                m = CSI.match(s, i) or OTHER_ESC.match(s, i)
                if m is None:
                    if len(s) - i < 16 and re.fullmatch(r"\x1b(\[[0-9;?=>]*)?", s[i:]):
                        self.pending = s[i:]        # completed by the next chunk
                        return
                    i += 1                          # a lone ESC: dropped
                    continue
                if m.re is CSI:
                    self._csi(m.group(1), m.group(2))
                i = m.end()
                continue
            if ch == "\r":
                self.c = 0
            elif ch == "\n":
                self._newline()
            elif ch == "\b":
                self.c = max(0, self.c - 1)
            elif ch == "\t":
                self.c = min(self.cols - 1, (self.c // 8 + 1) * 8)
            elif " " <= ch <= "~":
                self._put(ch)
            i += 1
