// The socket side of the local OpenAI-compatible server (see openai-server.ts): a process of its
// own that accepts HTTP, hands each request to its parent over IPC and writes the answer the parent
// sends back (or none: a hanging provider). It dies with its parent.
import { createServer } from 'node:http';

const waiting = new Map();
let nextId = 0;

const server = createServer((req, res) => {
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    const id = (nextId += 1);
    waiting.set(id, res);
    res.on('close', () => {
      waiting.delete(id);
      if (process.connected) process.send({ type: 'closed', id });
    });
    process.send({
      type: 'request',
      id,
      url: req.url ?? '',
      authorization: req.headers.authorization ?? null,
      body: Buffer.concat(chunks).toString('utf8'),
    });
  });
});

process.on('message', (message) => {
  if (message.type === 'answer') {
    waiting.get(message.id)?.writeHead(message.status, message.headers).end(message.body);
  } else if (message.type === 'close') {
    server.closeAllConnections();
    server.close(() => process.exit(0));
  }
});
process.on('disconnect', () => process.exit(0));

server.listen(0, '127.0.0.1', () => process.send({ type: 'listening', port: server.address().port }));
