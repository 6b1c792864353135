/** A loopback server implementing the GitHub REST endpoints `compound pr` uses: list pulls by
 * head and state, create one, update one. Tests read and change `pulls` (a merge) directly. */
import { createServer, type Server } from 'node:http';

export interface Pull {
  number: number;
  head: string;
  base: string;
  title: string;
  body: string;
  state: 'open' | 'closed';
  merged: boolean;
}

export interface FakeGitHub {
  url: string;
  pulls: Pull[];
  /** The Authorization header of every request. */
  auth: string[];
  close(): Promise<void>;
}

export async function fakeGitHub(repo = 'acme/kb'): Promise<FakeGitHub> {
  const pulls: Pull[] = [];
  const auth: string[] = [];
  const base = `/repos/${repo}/pulls`;
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString()));
    req.on('end', () => {
      auth.push(String(req.headers.authorization));
      const url = new URL(req.url ?? '/', 'http://x');
      const send = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      const view = (p: Pull) => ({ number: p.number, html_url: `https://github.example/${repo}/pull/${p.number}`, state: p.state, merged: p.merged, title: p.title, body: p.body, head: { ref: p.head, label: `${repo.split('/')[0]}:${p.head}` }, base: { ref: p.base } });
      if (req.method === 'GET' && url.pathname === base) {
        const [, branch] = (url.searchParams.get('head') ?? '').split(':');
        return send(200, pulls.filter((p) => p.state === url.searchParams.get('state') && p.head === branch && (!url.searchParams.get('base') || p.base === url.searchParams.get('base'))).map(view));
      }
      if (req.method === 'POST' && url.pathname === base) {
        const b = JSON.parse(raw) as { title: string; head: string; base: string; body: string };
        if (pulls.some((p) => p.state === 'open' && p.head === b.head)) return send(422, { message: 'A pull request already exists' });
        const p: Pull = { number: pulls.length + 1, head: b.head, base: b.base, title: b.title, body: b.body, state: 'open', merged: false };
        pulls.push(p);
        return send(201, view(p));
      }
      const m = new RegExp(`^${base}/(\\d+)$`).exec(url.pathname);
      if (req.method === 'PATCH' && m) {
        const p = pulls.find((x) => x.number === Number(m[1]));
        if (!p) return send(404, { message: 'Not Found' });
        Object.assign(p, JSON.parse(raw));
        return send(200, view(p));
      }
      send(404, { message: 'Not Found' });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    pulls,
    auth,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
