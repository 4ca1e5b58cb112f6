#!/usr/bin/env python3
"""A scripted stand-in for `boxls lsp`, for editors/nvim/test/e2e.lua: the states the
real server passes through too quickly to be caught on a fast machine, held for as long
as the test wants.

It serves the editor contract (README, "Custom requests") for a document with one maze,
a corridor one row high (S, B and T in it, B between S and T): `boxls/maze` and
`boxls/mazes` answer `status: "solving"` and `boxls/settled` does not answer while the
test holds the solve; `fake/release` (a notification) finishes it: the held
`boxls/settled` requests are answered, and `boxls/maze` answers `solved` from then on.
`fake/hold` starts holding again. The code actions (only once solved) write the
`; solution:` line, or make the corridor hardest: `refactor.rewrite.hardest`, offered
without its edit (`data`) and filled in on `codeAction/resolve`, as the real server does
while it searches: T at the first cell, B and S at the far end (`T..BS`), or with the
target kept. Until an action has been resolved once for a row it is offered that way;
its resolve fails when nothing would move (as the real server's does when its search
finds nothing to offer), and from then on it is not offered. `boxls/difficulty` answers the map
(pushes and moves with the box on each cell), `boxls/replay` the start and the move
string. `fake/stats` answers how many of each request it was sent (the test checks the
plugin waits on `boxls/settled` rather than asking again and again, and asks for the map
once).

Speaks JSON-RPC with Content-Length framing on stdin/stdout; full text sync.
"""
import json
import re
import sys

HARDEST_KIND = "refactor.rewrite.hardest"

docs = {}  # uri -> {"version": int, "lines": [str]}
searched = set()  # (row, keep target) of each hardest action resolved once
held = True
waiting = []  # (id, uri) of each boxls/settled request not answered yet
counts = {}


def read():
    length = None
    while True:
        line = sys.stdin.buffer.readline()
        if not line:
            return None
        line = line.strip()
        if not line:
            break
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value.strip())
    return json.loads(sys.stdin.buffer.read(length))


def send(message):
    message["jsonrpc"] = "2.0"
    body = json.dumps(message).encode()
    sys.stdout.buffer.write(b"Content-Length: %d\r\n\r\n%s" % (len(body), body))
    sys.stdout.buffer.flush()


def maze_of(uri):
    """The document's first maze: header line, last row's line, size, recorded line."""
    doc = docs[uri]
    lines = doc["lines"]
    rows, cols = (int(x) for x in lines[0].split())
    last = rows
    recorded = None
    if last + 1 < len(lines):
        m = re.match(r"^; solution:\s*(\S*)", lines[last + 1])
        if m:
            recorded = {"moves": m.group(1), "optimal": m.group(1) == solution(uri)}
    return {"header": 0, "last": last, "rows": rows, "cols": cols, "recorded": recorded}


def corridor(uri):
    """The maze's one row and the columns of S, B and T in it."""
    row = docs[uri]["lines"][1]
    return row, row.index("S"), row.index("B"), row.index("T")


def solution_of(row, s, b, t):
    """The optimal moves of a corridor with B between S and T: walk up to B, push it on."""
    if s < b < t:
        return "e" * (b - 1 - s) + "E" * (t - b)
    return "w" * (s - b - 1) + "W" * (b - t)


def solution(uri):
    return solution_of(*corridor(uri))


def state(uri):
    maze = maze_of(uri)
    solved = not held
    path = solution(uri)
    return {
        "version": docs[uri]["version"],
        "maze": 1,
        "headerLine": maze["header"],
        "lastLine": maze["last"],
        "rows": maze["rows"],
        "cols": maze["cols"],
        "status": "solved" if solved else "solving",
        "reason": None if solved else "Maze #1 is still being solved",
        "pushes": sum(c.isupper() for c in path) if solved else None,
        "moves": len(path) if solved else None,
        "solution": path if solved else None,
        "recorded": maze["recorded"],
        "firstError": None,
    }


def line_edit(uri, path):
    """The edit writing (or replacing) the solution line after the maze's last row."""
    maze = maze_of(uri)
    line = maze["last"] + 1
    end = line + 1 if maze["recorded"] else line
    return {
        "range": {"start": {"line": line, "character": 0}, "end": {"line": end, "character": 0}},
        "newText": "; solution: %s\n" % path,
    }


def solution_edit(uri):
    return {"changes": {uri: [line_edit(uri, solution(uri))]}}


def hardest_row(row, t, keep):
    """The hardest corridor: T at one end, B and S at the other; the first T when both
    ends are as hard (or T where it is, with the target kept)."""
    n = len(row)
    if keep:
        s, b = (n - 1, n - 2) if t < (n - 1) - t else (0, 1)
        t_at = t
    else:
        t_at, b, s = 0, n - 2, n - 1
    cells = ["."] * n
    cells[s], cells[b], cells[t_at] = "S", "B", "T"
    return "".join(cells)


def hardest_edit(uri, keep):
    """The one edit making the corridor hardest: its cells, then its solution line."""
    row, _, _, t = corridor(uri)
    new = hardest_row(row, t, keep)
    edits = [
        {"range": {"start": {"line": 1, "character": c}, "end": {"line": 1, "character": c + 1}}, "newText": new[c]}
        for c in range(len(row))
        if row[c] != new[c]
    ]
    if not edits:
        return None
    edits.append(line_edit(uri, solution_of(new, new.index("S"), new.index("B"), new.index("T"))))
    return {"changes": {uri: edits}}


def wants(only, kind):
    """Whether `only` (kinds or their prefixes) asks for `kind`."""
    return any(kind == k or kind.startswith(k + ".") for k in only)


def code_actions(params):
    uri = params["textDocument"]["uri"]
    maze = maze_of(uri)
    if held:
        return []
    actions = []
    only = params.get("context", {}).get("only") or ["refactor.rewrite", "source.boxls.insertAllSolutions"]
    optimal = maze["recorded"] and maze["recorded"]["optimal"]
    for kind in ("refactor.rewrite", "source.boxls.insertAllSolutions"):
        if wants(only, kind) and not optimal:
            actions.append({"title": "Insert optimal solution", "kind": kind, "edit": solution_edit(uri)})
    if wants(only, HARDEST_KIND):
        for keep in (False, True):
            if (corridor(uri)[0], keep) not in searched or hardest_edit(uri, keep):
                data = {"action": "makeHardest", "uri": uri, "version": docs[uri]["version"], "keepTarget": keep, "row": corridor(uri)[0]}
                actions.append({"title": "Make Maze #1 hardest", "kind": HARDEST_KIND, "data": data})
    return actions


def resolve(action):
    """The hardest action's edit, refused (ContentModified) if the maze has changed."""
    data = action.get("data") or {}
    uri = data.get("uri")
    if uri not in docs or corridor(uri)[0] != data.get("row"):
        return {"error": {"code": -32801, "message": "Maze #1 has changed since the action was offered"}}
    searched.add((data["row"], data["keepTarget"]))
    edit = hardest_edit(uri, data["keepTarget"])
    if not edit:
        return {"error": {"code": -32602, "message": "Maze #1: nothing to move"}}
    action = dict(action, edit=edit)
    action.pop("data")
    return {"result": action}


def difficulty(uri):
    """The map of the corridor: with the box between S and T, the walk up to it and the
    pushes on; elsewhere unsolvable."""
    row, s, _, t = corridor(uri)
    kinds, pushes, moves = [], [], []
    for c, cell in enumerate(row):
        if cell in "ST":
            kinds.append(cell)
            pushes.append(None)
            moves.append(None)
        elif min(s, t) < c < max(s, t):
            path = solution_of(row, s, c, t)
            kinds.append(".")
            pushes.append(sum(ch.isupper() for ch in path))
            moves.append(len(path))
        else:
            kinds.append("x")
            pushes.append(None)
            moves.append(None)
    solved = [p for p in pushes if p is not None]
    return {
        "version": docs[uri]["version"],
        "maze": 1,
        "rows": 1,
        "cols": len(row),
        "kinds": ["".join(kinds)],
        "pushes": [pushes],
        "moves": [moves],
        "maxPushes": max(solved, default=0),
    }


def replay(uri):
    if held:
        return None
    doc, maze = docs[uri], maze_of(uri)
    cells = doc["lines"][1 : maze["last"] + 1]
    find = lambda ch: next([r, row.index(ch)] for r, row in enumerate(cells) if ch in row)
    steps, pushed = deltas(find("S"), find("B"), solution(uri), maze["cols"])
    return {
        "maze": 1,
        "version": doc["version"],
        "rows": maze["rows"],
        "cols": maze["cols"],
        "cells": cells,
        "moves": solution(uri),
        "pushes": sum(c.isupper() for c in solution(uri)),
        "frames": [],
        "start": {"player": find("S"), "box": find("B")},
        "dead": [],
        "steps": steps,
        "pushed": pushed,
    }


def deltas(player, box, moves, cols):
    """What the real server sends for `moves` from this start: the player's cell after
    each move, and each push as [move, box 0, the box's new cell]."""
    way = {"n": (-1, 0), "s": (1, 0), "e": (0, 1), "w": (0, -1)}
    (pr, pc), (br, bc) = player, box
    steps, pushed = [], []
    for k, move in enumerate(moves):
        dr, dc = way[move.lower()]
        pr, pc = pr + dr, pc + dc
        if (pr, pc) == (br, bc):
            br, bc = br + dr, bc + dc
            pushed.append([k, 0, br * cols + bc])
        steps.append(pr * cols + pc)
    return steps, pushed


def release():
    global held
    held = False
    for id, uri in waiting:
        send({"id": id, "result": {"version": docs[uri]["version"], "published": 1}})
    waiting.clear()


def handle(message):
    global held
    method, params, id = message.get("method"), message.get("params") or {}, message.get("id")
    if method is None:
        return  # an answer to something we never ask
    counts[method] = counts.get(method, 0) + 1
    uri = (params.get("textDocument") or {}).get("uri")
    if method == "initialize":
        result = {
            "capabilities": {
                "textDocumentSync": {"openClose": True, "change": 1},
                "codeActionProvider": {
                    "codeActionKinds": ["refactor.rewrite", "source.boxls.insertAllSolutions", HARDEST_KIND],
                    "resolveProvider": True,
                },
            },
            "serverInfo": {"name": "boxls-fake", "version": "0"},
        }
    elif method == "textDocument/didOpen":
        doc = params["textDocument"]
        docs[doc["uri"]] = {"version": doc["version"], "lines": doc["text"].split("\n")}
        return
    elif method == "textDocument/didChange":
        docs[uri] = {"version": params["textDocument"]["version"], "lines": params["contentChanges"][-1]["text"].split("\n")}
        return
    elif method == "textDocument/didClose":
        docs.pop(uri, None)
        return
    elif method == "fake/release":
        return release()
    elif method == "fake/hold":
        held = True
        return
    elif method == "exit":
        sys.exit(0)
    elif id is None:
        return  # any other notification
    elif method == "shutdown":
        result = None
    elif method == "boxls/maze":
        line = params["position"]["line"]
        st = state(uri)
        result = st if st["headerLine"] <= line <= st["lastLine"] else None
    elif method == "boxls/mazes":
        result = {"version": docs[uri]["version"], "mazes": [state(uri)]}
    elif method == "boxls/settled":
        if held:
            waiting.append((id, uri))
            return
        result = {"version": docs[uri]["version"], "published": 1}
    elif method == "textDocument/codeAction":
        result = code_actions(params)
    elif method == "codeAction/resolve":
        return send(dict(resolve(params), id=id))
    elif method == "boxls/difficulty":
        result = difficulty(uri)
    elif method == "boxls/replay":
        result = replay(uri)
    elif method == "fake/stats":
        result = counts
    else:
        return send({"id": id, "error": {"code": -32601, "message": "fake server: no " + method}})
    send({"id": id, "result": result})


def main():
    while True:
        message = read()
        if message is None:
            return
        handle(message)


if __name__ == "__main__":
    main()
