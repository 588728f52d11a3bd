#!/usr/bin/env python3
# An MCP server with one tool whose input schema is about 700 KB.
import sys, json
props = {("p%d" % i): {"type": "string", "description": "x" * 200} for i in range(3000)}
for line in sys.stdin:
    m = json.loads(line); mid = m.get("id"); meth = m.get("method")
    if meth == "initialize":
        r = {"protocolVersion": m["params"]["protocolVersion"], "capabilities": {"tools": {}}, "serverInfo": {"name": "huge", "version": "1"}}
    elif meth == "tools/list":
        r = {"tools": [{"name": "wide", "description": "huge", "inputSchema": {"type": "object", "properties": props}}]}
    elif mid is None:
        continue
    else:
        r = {}
    sys.stdout.write(json.dumps({"jsonrpc": "2.0", "id": mid, "result": r}) + "\n"); sys.stdout.flush()
