/**
 * The baseline of the benchmark: a bare node:http server that reads the request body and
 * answers a fixed JSON body, the ceiling any HTTP server on this machine can reach. Prints its URL on stdout.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const body = JSON.stringify({ success: true, requestId: 'req_0000000000000000', types: ['summary_metrics'] });
const server = createServer((req, res) => {
  // Reads the request body, as any server of a POST must, then answers the fixed bytes.
  req.resume();
  req.on('end', () => {
    res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(body) });
    res.end(body);
  });
});
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`listening on http://127.0.0.1:${(server.address() as AddressInfo).port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
