"""A minimal Language Server Protocol client for the cuda-clangd test: opens
one file, waits for publishDiagnostics, asks for the code actions of the
first cuda-* diagnostic, applies the quick fix's edit and prints the result."""
import json
import os
import subprocess
import sys


def send(proc, msg):
    body = json.dumps(msg).encode()
    proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    proc.stdin.flush()


def receive(proc):
    length = 0
    while True:
        line = proc.stdout.readline()
        if not line:
            raise SystemExit("server closed the connection")
        line = line.strip()
        if not line:
            break
        if line.lower().startswith(b"content-length:"):
            length = int(line.split(b":")[1])
    return json.loads(proc.stdout.read(length))


def wait_for(proc, pred):
    while True:
        msg = receive(proc)
        if pred(msg):
            return msg


def apply_edits(text, edits):
    lines = text.split("\n")
    offsets = [0]
    for l in lines:
        offsets.append(offsets[-1] + len(l) + 1)

    def off(pos):
        return offsets[pos["line"]] + pos["character"]

    for e in sorted(edits, key=lambda e: off(e["range"]["start"]), reverse=True):
        text = text[:off(e["range"]["start"])] + e["newText"] + text[off(e["range"]["end"]):]
    return text


def main():
    server, path = sys.argv[1], os.path.abspath(sys.argv[2])
    uri = "file://" + path
    text = open(path).read()
    proc = subprocess.Popen([server, "--log=error"] + sys.argv[3:],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    send(proc, {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "processId": os.getpid(), "rootUri": "file://" + os.path.dirname(path),
        "capabilities": {"textDocument": {"publishDiagnostics": {},
                         "codeAction": {"codeActionLiteralSupport": {
                             "codeActionKind": {"valueSet": ["quickfix"]}}}}}}})
    wait_for(proc, lambda m: m.get("id") == 1)
    send(proc, {"jsonrpc": "2.0", "method": "initialized", "params": {}})
    send(proc, {"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {
        "textDocument": {"uri": uri, "languageId": "cuda", "version": 1, "text": text}}})
    diags = wait_for(proc, lambda m: m.get("method") == "textDocument/publishDiagnostics"
                     and m["params"]["uri"] == uri)["params"]["diagnostics"]
    for d in diags:
        print("DIAG %d:%d %s [%s] %s" % (d["range"]["start"]["line"] + 1,
              d["range"]["start"]["character"] + 1, d.get("source", ""),
              d.get("code", ""), d["message"].split("\n")[0]))
    cuda = [d for d in diags if str(d.get("code", "")).startswith("cuda-")]
    if cuda:
        d = cuda[0]
        send(proc, {"jsonrpc": "2.0", "id": 2, "method": "textDocument/codeAction",
                    "params": {"textDocument": {"uri": uri}, "range": d["range"],
                               "context": {"diagnostics": [d]}}})
        actions = wait_for(proc, lambda m: m.get("id") == 2)["result"]
        for a in actions:
            print("ACTION %s: %s" % (a.get("kind", ""), a["title"]))
            edits = a.get("edit", {}).get("changes", {}).get(uri)
            if edits is None:
                for dc in a.get("edit", {}).get("documentChanges", []):
                    if dc["textDocument"]["uri"] == uri:
                        edits = dc["edits"]
            if edits and a.get("kind") == "quickfix":
                fixed = apply_edits(text, edits)
                for i, (old, new) in enumerate(zip(text.split("\n"), fixed.split("\n"))):
                    if old != new:
                        print("FIXED %d: %s" % (i + 1, new))
                break
    send(proc, {"jsonrpc": "2.0", "id": 3, "method": "shutdown"})
    wait_for(proc, lambda m: m.get("id") == 3)
    send(proc, {"jsonrpc": "2.0", "method": "exit"})
    proc.wait(timeout=30)
    print("EXIT %d" % proc.returncode)


main()
