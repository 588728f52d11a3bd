// A tiny MCP server on stdio for mm's failure tests (cmd/mm/mcp_fail_test.go).
// argv[2] is a directory where it appends its pid to "pids" (and its
// child's, with SPAWN=1) and the names of the calls it received to
// "called". The tool "hang" never answers; "ping" answers pong. With
// WAIT_FOR=<file> it answers initialize only once that file exists. With
// EXTRA=1 it also has "big", whose answer is one line of BIG_MB (20) MB,
// and "odd\nname", a name with a newline in it, which answers odd.
const fs = require('fs');
const path = require('path');
const dir = process.argv[2];
fs.appendFileSync(path.join(dir, 'pids'), process.pid + '\n');
if (process.env.SPAWN === '1') {
  const child = require('child_process').spawn('sleep', ['300'], { stdio: 'ignore' });
  fs.appendFileSync(path.join(dir, 'pids'), child.pid + '\n');
}
const send = (m) => process.stdout.write(JSON.stringify(m) + '\n');
const tools = [
  { name: 'hang', description: 'Never answers.', inputSchema: { type: 'object', properties: {} } },
  { name: 'ping', description: 'Answers pong.', inputSchema: { type: 'object', properties: {} } },
];
if (process.env.EXTRA === '1') {
  tools.push({ name: 'big', description: 'Answers a huge text.', inputSchema: { type: 'object', properties: {} } });
  tools.push({ name: 'odd\nname', description: 'A name on two lines.', inputSchema: { type: 'object', properties: {} } });
}
let buf = '';
process.stdin.on('data', (chunk) => {
  buf += chunk;
  let i;
  while ((i = buf.indexOf('\n')) >= 0) {
    const line = buf.slice(0, i);
    buf = buf.slice(i + 1);
    if (line.trim() === '') continue;
    handle(JSON.parse(line));
  }
});
function handle(m) {
  if (m.method === 'initialize') {
    const answer = () => send({ jsonrpc: '2.0', id: m.id, result: {
      protocolVersion: '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: 'tiny', version: '1' } } });
    const wait = process.env.WAIT_FOR;
    if (!wait) return answer();
    const t = setInterval(() => { if (fs.existsSync(wait)) { clearInterval(t); answer(); } }, 20);
  } else if (m.method === 'tools/list') {
    send({ jsonrpc: '2.0', id: m.id, result: { tools } });
  } else if (m.method === 'tools/call') {
    fs.appendFileSync(path.join(dir, 'called'), m.params.name + '\n');
    if (m.params.name === 'ping') {
      send({ jsonrpc: '2.0', id: m.id, result: { content: [{ type: 'text', text: 'pong' }] } });
    } else if (m.params.name === 'big') {
      const mb = Number(process.env.BIG_MB || '20');
      send({ jsonrpc: '2.0', id: m.id, result: { content: [{ type: 'text', text: 'x'.repeat(mb * 1024 * 1024) }] } });
    } else if (m.params.name === 'odd\nname') {
      send({ jsonrpc: '2.0', id: m.id, result: { content: [{ type: 'text', text: 'odd' }] } });
    }
  } else if (m.id !== undefined && m.method) {
    send({ jsonrpc: '2.0', id: m.id, result: {} });
  }
}
