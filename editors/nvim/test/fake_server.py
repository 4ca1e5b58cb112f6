#!/usr/bin/env python3
"""A scripted stand-in for `boxls lsp`, for editors/nvim/test/e2e.lua: the states the
real server passes through too quickly to be caught on a fast machine, held for as long
as the test wants.

It serves the editor contract (README, "Custom requests") for a document with one maze
whose optimal solution is SOLUTION: `boxls/maze` and `boxls/mazes` answer
`status: "solving"` and `boxls/settled` does not answer while the test holds the
solve; `fake/release` (a notification) finishes it: the held `boxls/settled` requests
are answered, and `boxls/maze` answers `solved` from then on. `fake/hold` starts
holding again. The code actions write `; solution: SOLUTION` (only once solved), and
`boxls/replay` answers the start and the move string. `fake/stats` answers how many of
each request it was sent (the test checks the plugin waits on `boxls/settled` rather
than asking again and again).

Speaks JSON-RPC with Content-Length framing on stdin/stdout; full text sync.
"""
import json
import re
import sys

SOLUTION = "EE"  # the optimal moves of the test's maze `1 4` / `SB.T`: two pushes east
PUSHES = 2

docs = {}  # uri -> {"version": int, "lines": [str]}
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
            recorded = {"moves": m.group(1), "optimal": m.group(1) == SOLUTION}
    return {"header": 0, "last": last, "rows": rows, "cols": cols, "recorded": recorded}


def state(uri):
    maze = maze_of(uri)
    solved = not held
    return {
        "version": docs[uri]["version"],
        "maze": 1,
        "headerLine": maze["header"],
        "lastLine": maze["last"],
        "rows": maze["rows"],
        "cols": maze["cols"],
        "status": "solved" if solved else "solving",
        "reason": None if solved else "Maze #1 is still being solved",
        "pushes": PUSHES if solved else None,
        "moves": len(SOLUTION) if solved else None,
        "solution": SOLUTION if solved else None,
        "recorded": maze["recorded"],
        "firstError": None,
    }


def solution_edit(uri):
    """The edit writing (or replacing) the solution line after the maze's last row."""
    maze = maze_of(uri)
    line = maze["last"] + 1
    end = line + 1 if maze["recorded"] else line
    return {
        "changes": {
            uri: [
                {
                    "range": {"start": {"line": line, "character": 0}, "end": {"line": end, "character": 0}},
                    "newText": "; solution: %s\n" % SOLUTION,
                }
            ]
        }
    }


def code_actions(params):
    uri = params["textDocument"]["uri"]
    maze = maze_of(uri)
    if held or (maze["recorded"] and maze["recorded"]["optimal"]):
        return []
    actions = []
    only = params.get("context", {}).get("only") or ["refactor.rewrite", "source.boxls.insertAllSolutions"]
    for kind in only:
        if kind in ("refactor.rewrite", "source.boxls.insertAllSolutions"):
            actions.append({"title": "Insert optimal solution", "kind": kind, "edit": solution_edit(uri)})
    return actions


def replay(uri):
    if held:
        return None
    doc, maze = docs[uri], maze_of(uri)
    cells = doc["lines"][1 : maze["last"] + 1]
    find = lambda ch: next([r, row.index(ch)] for r, row in enumerate(cells) if ch in row)
    return {
        "maze": 1,
        "version": doc["version"],
        "rows": maze["rows"],
        "cols": maze["cols"],
        "cells": cells,
        "moves": SOLUTION,
        "pushes": PUSHES,
        "frames": [],
        "start": {"player": find("S"), "box": find("B")},
        "dead": [],
    }


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
                "codeActionProvider": {"codeActionKinds": ["refactor.rewrite", "source.boxls.insertAllSolutions"]},
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
